// Preloaded (`--import`) into a relay a long benchmark watches: every few seconds appends
// `<epoch ms> <heapUsed> <rss>` to heap-<pid>.log in the process's temp folder (TMPDIR), so the
// bench reads the V8 heap of a process that has no endpoint for it. The timer never keeps the
// process alive, and a failed write is dropped: the relay must not notice it is watched.
import { appendFile } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SAMPLE_MS = 5_000;
const file = join(tmpdir(), `heap-${process.pid}.log`);

setInterval(() => {
  const { heapUsed, rss } = process.memoryUsage();
  appendFile(file, `${Date.now()} ${heapUsed} ${rss}\n`, () => {});
}, SAMPLE_MS).unref();
