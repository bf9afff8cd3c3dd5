// The harness is @oar/core's, so that @oar/scheduler's suites (which may not import this package)
// share it; it stays exported here for the suites and tests written against this path.
export {
  type ContractFixture,
  type ContractSetup,
  T0,
  useContractFixture,
} from "@oar/core/testing";
export { runCardStoreContract } from "./card-store-contract";
export { runLoopCounterStoreContract } from "./loop-counter-store-contract";
export {
  createMemoryCardStore,
  createMemoryLoopCounterStore,
  createMemoryUnlockStore,
} from "./memory-stores";
export { runUnlockStoreContract } from "./unlock-store-contract";
