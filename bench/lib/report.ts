import type { LoadResult } from "./load";

/** The best round of each target as a Markdown table. */
export function printTable(title: string, best: ReadonlyMap<string, LoadResult>): void {
  console.log(`\n${title}`);
  console.log("| target | req/s | p50 ms | p99 ms |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const r of best.values()) {
    console.log(`| ${r.name} | ${r.perSecond.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} |`);
  }
  console.log("");
}

/** `a vs b: 0.83× req/s, 0.88× p99 (goal ≥ 0.8×) met`, one line per pair. */
export function printRatios(
  best: ReadonlyMap<string, LoadResult>,
  pairs: readonly (readonly [string, string, number])[],
): void {
  const get = (name: string): LoadResult => {
    const result = best.get(name);
    if (!result) {
      throw new Error(`no result for ${name}`);
    }
    return result;
  };
  for (const [a, b, goal] of pairs) {
    const x = get(a);
    const y = get(b);
    const rps = x.perSecond / y.perSecond;
    const p99 = y.p99Ms / x.p99Ms;
    console.log(
      `${a} vs ${b}: ${rps.toFixed(2)}× req/s, ${p99.toFixed(2)}× p99 (goal ≥ ${goal}×) ${rps >= goal ? "met" : "NOT met"}`,
    );
  }
}
