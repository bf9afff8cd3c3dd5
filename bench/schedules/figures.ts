import type { Estimate } from "../lib/relay-metrics";

/** What one scheduler did with the instants it was given. */
export interface Firings {
  readonly name: string;
  /** Why the leg was not measured (the relay refused `schedule`, say); the rest is then empty. */
  readonly notMeasured?: string;
  /**
   * The relay's own measure, from its /metrics histogram (count, estimated p50 and p99 in ms):
   * no sample each, so `lateness` is empty and duplicates and misses are not its to tell.
   */
  readonly estimate?: Estimate;
  /** Per instant that fired: its first firing − the instant, in ms. */
  readonly lateness: readonly number[];
  /** Instants that fired more than once. */
  readonly duplicates: number;
  /** Instants with no firing within the grace period after the last one. */
  readonly misses: number;
}

/**
 * The figures of the instants `due` (id → epoch ms) from the times each id fired: lateness from its
 * first firing; more than one firing, a duplicate; none, a miss.
 */
export function tally(
  name: string,
  due: ReadonlyMap<string, number>,
  fired: ReadonlyMap<string, readonly number[]>,
): Firings {
  const lateness: number[] = [];
  let duplicates = 0;
  let misses = 0;
  for (const [id, at] of due) {
    const times = fired.get(id) ?? [];
    if (times.length === 0) {
      misses++;
      continue;
    }
    lateness.push(Math.min(...times) - at);
    if (times.length > 1) {
      duplicates++;
    }
  }
  return { name, lateness, duplicates, misses };
}

export interface Summary {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly min: number;
}

/** Nearest-rank quantiles (NaN for no samples). */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN, min: sorted[0] ?? Number.NaN };
}

/**
 * `count` distinct millisecond offsets in [0, spreadMs), increasing: one in each of `count` equal
 * slots, at a seeded random place in it, so that no two instants share a millisecond and the
 * firings are spread evenly without falling on round numbers.
 */
export function instantOffsets(count: number, spreadMs: number, next: () => number): number[] {
  const width = spreadMs / count;
  if (width < 1) {
    throw new Error(`${count} distinct milliseconds do not fit in ${spreadMs} ms`);
  }
  return Array.from({ length: count }, (_, i) => Math.floor(i * width + next() * width));
}

/** Polls `done` every `everyMs` until it is true or `deadline` (epoch ms) passes. */
export async function waitUntil(
  done: () => Promise<boolean>,
  deadline: number,
  everyMs = 1000,
): Promise<void> {
  while (!(await done()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
