// Preloaded (`--import`) into a relay a long benchmark watches: every few seconds appends
// `<epoch ms> <heapUsed> <rss>` to heap-<pid>.log in the process's temp folder (TMPDIR), so the
// bench reads the V8 heap of a process that has no endpoint for it. Once a minute it first asks
// V8 for a full collection (as `gc-on-signal.ts` does) and marks that line `gc`: what a process
// holds after a collection is the series a leak shows in; between collections the heap carries
// garbage the collector has not come to yet. The timers never keep the process alive, and a
// failed write is dropped: the relay must not notice it is watched.
import { appendFile } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SAMPLE_MS = 5_000;
const COLLECTED_EVERY_MS = 60_000;
const file = join(tmpdir(), `heap-${process.pid}.log`);

const log = (mark: string) => {
  const { heapUsed, rss } = process.memoryUsage();
  appendFile(file, `${Date.now()} ${heapUsed} ${rss}${mark}\n`, () => {});
};

setInterval(() => log(""), SAMPLE_MS).unref();

const session = new Session();
session.connect();
setInterval(() => {
  session.post("HeapProfiler.collectGarbage", (error) => {
    if (!error) {
      log(" gc");
    }
  });
}, COLLECTED_EVERY_MS).unref();
