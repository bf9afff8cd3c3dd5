import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Node options that make a relay log its heap (`heap-log.ts`) into its TMPDIR. */
export const HEAP_LOG_ARGS: readonly string[] = ["--import", join(import.meta.dirname, "heap-log.ts")];

export interface MemorySample {
  readonly at: number;
  readonly bytes: number;
  /** Taken right after a forced full collection (`heap-log.ts`): what the process holds. */
  readonly collected?: boolean;
}

/** A live process's resident set from /proc/<pid>/status (VmRSS), or null when it is gone. */
export async function vmRssBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

/** The heap and resident-set samples `heap-log.ts` wrote for `pid` into `tmpDir` (none when it wrote none). */
export async function heapSamples(
  tmpDir: string,
  pid: number,
): Promise<{ readonly heap: MemorySample[]; readonly rss: MemorySample[] }> {
  let text: string;
  try {
    text = await readFile(join(tmpDir, `heap-${pid}.log`), "utf8");
  } catch {
    return { heap: [], rss: [] };
  }
  const heap: MemorySample[] = [];
  const rss: MemorySample[] = [];
  for (const line of text.split("\n")) {
    const [at, heapUsed, resident, mark] = line.split(" ");
    const numbers = [at, heapUsed, resident].map(Number);
    if (numbers.some((n) => !Number.isFinite(n)) || at === undefined || at === "") {
      continue;
    }
    const collected = mark === "gc";
    heap.push({ at: numbers[0] ?? 0, bytes: numbers[1] ?? 0, collected });
    rss.push({ at: numbers[0] ?? 0, bytes: numbers[2] ?? 0, collected });
  }
  return { heap, rss };
}

/**
 * Bytes per hour a series grows by, after `warmUpMs`: a least-squares line through the samples
 * taken after a forced full collection when the series has them, else through the lowest sample
 * of each minute (the floor the garbage collector comes back to, not the saw of the young
 * generation). Null with fewer than five points to fit: over less, a collection or two moves the
 * line by more than the leak it looks for.
 */
export function slopePerHour(samples: readonly MemorySample[], warmUpMs: number): number | null {
  const first = samples[0]?.at;
  if (first === undefined) {
    return null;
  }
  const warm = samples.filter((sample) => sample.at >= first + warmUpMs);
  const collected = warm.filter((sample) => sample.collected === true);
  const points = collected.length >= 5 ? collected : minuteFloors(warm, first);
  if (points.length < 5) {
    return null;
  }
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.at, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.bytes, 0) / n;
  const sxy = points.reduce((sum, p) => sum + (p.at - meanX) * (p.bytes - meanY), 0);
  const sxx = points.reduce((sum, p) => sum + (p.at - meanX) ** 2, 0);
  return sxx === 0 ? null : (sxy / sxx) * 3_600_000;
}

function minuteFloors(samples: readonly MemorySample[], first: number): MemorySample[] {
  const floors = new Map<number, MemorySample>();
  for (const sample of samples) {
    const minute = Math.floor((sample.at - first) / 60_000);
    const floor = floors.get(minute);
    if (floor === undefined || sample.bytes < floor.bytes) {
      floors.set(minute, sample);
    }
  }
  return [...floors.values()];
}
