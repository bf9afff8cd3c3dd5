import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Node options that make a relay log its heap (`heap-log.ts`) into its TMPDIR. */
export const HEAP_LOG_ARGS: readonly string[] = ["--import", join(import.meta.dirname, "heap-log.ts")];

export interface MemorySample {
  readonly at: number;
  readonly bytes: number;
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

/** The heap samples `heap-log.ts` wrote for `pid` into `tmpDir` (none when it wrote none). */
export async function heapSamples(tmpDir: string, pid: number): Promise<MemorySample[]> {
  let text: string;
  try {
    text = await readFile(join(tmpDir, `heap-${pid}.log`), "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((line) => line.split(" ").map(Number))
    .filter(([at, heap]) => Number.isFinite(at) && Number.isFinite(heap))
    .map(([at, heap]) => ({ at: at ?? 0, bytes: heap ?? 0 }));
}

/**
 * Bytes per hour a series grows by, after `warmUpMs`: a least-squares line through the lowest
 * sample of each minute (the floor the garbage collector comes back to, not the saw of the young
 * generation), null with fewer than five minutes to fit: over less, a collection or two moves
 * the line by more than the leak it looks for.
 */
export function slopePerHour(samples: readonly MemorySample[], warmUpMs: number): number | null {
  const first = samples[0]?.at;
  if (first === undefined) {
    return null;
  }
  const floors = new Map<number, MemorySample>();
  for (const sample of samples) {
    if (sample.at < first + warmUpMs) {
      continue;
    }
    const minute = Math.floor((sample.at - first) / 60_000);
    const floor = floors.get(minute);
    if (floor === undefined || sample.bytes < floor.bytes) {
      floors.set(minute, sample);
    }
  }
  const points = [...floors.values()];
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
