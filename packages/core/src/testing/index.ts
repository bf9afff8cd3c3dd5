export { FakeClock } from "./fake-clock";
export { type Snapshotting, snapshotOf } from "./memory-snapshot";
export { createSequentialIdGenerator } from "./sequential-ids";
