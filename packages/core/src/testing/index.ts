export {
  type ContractFixture,
  type ContractSetup,
  T0,
  useContractFixture,
} from "./contract-harness";
export { FakeClock } from "./fake-clock";
export { type Snapshotting, snapshotOf } from "./memory-snapshot";
export { type Random, seededRandom } from "./seeded-random";
export { createSequentialIdGenerator } from "./sequential-ids";
