export { runCardStoreContract } from "./card-store-contract";
export {
  type ContractFixture,
  type ContractSetup,
  T0,
  useContractFixture,
} from "./contract-harness";
export { runLoopCounterStoreContract } from "./loop-counter-store-contract";
export {
  createMemoryCardStore,
  createMemoryLoopCounterStore,
  createMemoryUnlockStore,
} from "./memory-stores";
export { runUnlockStoreContract } from "./unlock-store-contract";
