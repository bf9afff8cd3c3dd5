// Preloaded (`--import`) into a process a benchmark measures: SIGUSR2 collects all the garbage
// it can, as V8 does when told memory is low (several full collections that also shrink the young
// generation and give free pages back), so a resident-set sample counts what the process holds.
import { Session } from "node:inspector";

const session = new Session();
session.connect();
process.on("SIGUSR2", () => {
  session.post("HeapProfiler.collectGarbage");
});
