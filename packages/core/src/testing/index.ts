export {
  type ContractFixture,
  type ContractSetup,
  T0,
  useContractFixture,
} from "./contract-harness";
export { FakeClock, type FakeClockOptions } from "./fake-clock";
export { refuseStoredKey, refusingLikePostgres } from "./like-postgres";
export { type Snapshotting, snapshotOf } from "./memory-snapshot";
export { type Random, seededRandom } from "./seeded-random";
export { createSequentialIdGenerator } from "./sequential-ids";
