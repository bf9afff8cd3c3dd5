/**
 * A relay's own figures, read from its `GET /metrics` (Prometheus' text format, owner token):
 * the lateness histograms the benches print beside their own measure. A histogram gives counts
 * per bucket only, so its quantiles are estimates within a bucket's bounds, as Prometheus'
 * `histogram_quantile` makes them.
 */

/** One histogram (no labels but `le`), possibly summed over several relay processes. */
export interface Histogram {
  /** Cumulative counts by upper bound in seconds, the last one +Inf. */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
  readonly count: number;
  readonly sum: number;
}

/** What a bench prints of a histogram: how many, and the estimated p50 and p99 in ms. */
export interface Estimate {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
}

function bound(text: string): number {
  return text === "+Inf" ? Number.POSITIVE_INFINITY : Number(text);
}

/** The histogram `name` in an exposition text; undefined when the text has none of it. */
export function histogramIn(text: string, name: string): Histogram | undefined {
  const buckets = new Map<number, number>();
  let count: number | undefined;
  let sum = 0;
  for (const line of text.split("\n")) {
    const bucket = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`).exec(line);
    if (bucket) {
      buckets.set(bound(bucket[1] ?? ""), Number(bucket[2]));
    } else if (line.startsWith(`${name}_count `)) {
      count = Number(line.slice(name.length + 7));
    } else if (line.startsWith(`${name}_sum `)) {
      sum = Number(line.slice(name.length + 5));
    }
  }
  if (count === undefined) {
    return undefined;
  }
  const sorted = [...buckets].sort(([a], [b]) => a - b).map(([le, n]) => ({ le, count: n }));
  return { buckets: sorted, count, sum };
}

/**
 * The histogram `name` summed over the relay processes at `bases`; undefined when one of them
 * serves no /metrics (a relay from before it) or has no such histogram.
 */
export async function readHistogram(
  bases: readonly string[],
  ownerToken: string,
  name: string,
): Promise<Histogram | undefined> {
  const each: Histogram[] = [];
  for (const base of bases) {
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ownerToken}` } });
    if (!response.ok) {
      return undefined;
    }
    const histogram = histogramIn(await response.text(), name);
    if (histogram === undefined) {
      return undefined;
    }
    each.push(histogram);
  }
  const [first, ...rest] = each;
  return first === undefined ? undefined : rest.reduce((total, next) => combine(total, next, 1), first);
}

/** `a + sign × b`, bucket by bucket (the bounds are the same: the same relay code made both). */
function combine(a: Histogram, b: Histogram, sign: 1 | -1): Histogram {
  const of = new Map(b.buckets.map((bucket) => [bucket.le, bucket.count]));
  return {
    buckets: a.buckets.map((bucket) => ({
      le: bucket.le,
      count: bucket.count + sign * (of.get(bucket.le) ?? 0),
    })),
    count: a.count + sign * b.count,
    sum: a.sum + sign * b.sum,
  };
}

/** What was observed between two readings of one histogram. */
export function histogramSince(after: Histogram, before: Histogram | undefined): Histogram {
  return before === undefined ? after : combine(after, before, -1);
}

/**
 * The q-quantile in seconds, by linear interpolation inside the bucket it falls in (as
 * `histogram_quantile` does); in the +Inf bucket, the highest finite bound. NaN when empty.
 */
export function histogramQuantile(histogram: Histogram, q: number): number {
  if (histogram.count === 0) {
    return Number.NaN;
  }
  const rank = q * histogram.count;
  let lower = 0;
  let below = 0;
  for (const { le, count } of histogram.buckets) {
    if (count >= rank) {
      if (!Number.isFinite(le)) {
        return lower;
      }
      const inBucket = count - below;
      return inBucket === 0 ? le : lower + ((le - lower) * (rank - below)) / inBucket;
    }
    lower = Number.isFinite(le) ? le : lower;
    below = count;
  }
  return lower;
}

/** The histogram's count and its estimated p50 and p99, in ms. */
export function estimate(histogram: Histogram): Estimate {
  return {
    count: histogram.count,
    p50: histogramQuantile(histogram, 0.5) * 1000,
    p99: histogramQuantile(histogram, 0.99) * 1000,
  };
}
