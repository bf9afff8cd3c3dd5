export { FakeClock } from "./fake-clock";
export { createSequentialIdGenerator } from "./sequential-ids";
