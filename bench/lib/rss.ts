import { execFile } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Node options that let `collectedRss` collect the garbage of the process they start. */
export const COLLECT_ON_SIGNAL_ARGS: readonly string[] = [
  "--import",
  join(import.meta.dirname, "gc-on-signal.ts"),
];

/** A process's resident set in bytes, as `ps` reports it (Linux and macOS alike). */
export async function rssBytes(pid: number): Promise<number> {
  const { stdout } = await run("ps", ["-o", "rss=", "-p", String(pid)]);
  const kib = Number(stdout.trim());
  if (!Number.isFinite(kib) || kib <= 0) {
    throw new Error(`ps gave no resident size for process ${pid}: "${stdout.trim()}"`);
  }
  return kib * 1024;
}

async function medianOfSamples(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(await rssBytes(pid));
    await sleep(200);
  }
  samples.sort((a, b) => a - b);
  return samples[2] ?? Number.NaN;
}

/**
 * The resident set of a process left alone, as a user would see it: after `settleMs`, the median
 * of a few samples. Garbage the process has not collected yet counts, as it does for the user.
 */
export async function idleRss(pid: number, settleMs = 3_000): Promise<number> {
  await sleep(settleMs);
  return medianOfSamples(pid);
}

/**
 * The resident set once the garbage is collected (the process started with
 * COLLECT_ON_SIGNAL_ARGS): what an idle process settles to by itself, V8's memory reducer
 * collecting within a minute or two of quiet, measured at once; and what it holds live, for
 * differences between two moments that garbage would blur. Sampled right after the collection,
 * the least of three: a process with timers of its own (a poll, a lease) starts filling its young
 * generation again at once.
 */
export async function collectedRss(pid: number): Promise<number> {
  process.kill(pid, "SIGUSR2");
  await sleep(500);
  process.kill(pid, "SIGUSR2");
  await sleep(300);
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    samples.push(await rssBytes(pid));
    await sleep(50);
  }
  return Math.min(...samples);
}
