import { performance } from "node:perf_hooks";

export interface LoadTarget {
  readonly name: string;
  /** One request; resolves when the whole response has been read, rejects on a wrong answer. */
  readonly request: () => Promise<void>;
}

export interface LoadResult {
  readonly name: string;
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * Runs `requests` requests with `concurrency` in flight and records each latency. Bounded by
 * count, so a run always ends; the caller alternates targets so drift hits every target alike.
 */
export async function runLoad(
  target: LoadTarget,
  options: { readonly requests: number; readonly concurrency: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  const lane = async () => {
    while (issued < options.requests) {
      issued++;
      const t0 = performance.now();
      await target.request();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name: target.name,
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Keeps the best of several rounds per target: the least disturbed by the rest of the machine. */
export function bestOf(results: readonly LoadResult[]): LoadResult {
  return results.reduce((best, r) => (r.perSecond > best.perSecond ? r : best));
}
