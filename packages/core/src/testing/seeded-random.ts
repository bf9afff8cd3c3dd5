// mulberry32 with fixed seeds: property tests and benchmarks that replay the same cases in every
// run, without a property-testing library, and a failure can name its seed.

export interface Random {
  readonly seed: number;
  /** 0 ≤ n < 1. */
  next(): number;
  /** min ≤ n ≤ max. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bool(probability?: number): boolean;
  string(alphabet: string, min: number, max: number): string;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) {
      throw new Error("pick from an empty list");
    }
    return item;
  };
  return {
    seed,
    next,
    int,
    pick,
    bool: (probability = 0.5) => next() < probability,
    string: (alphabet, min, max) => {
      const chars = [...alphabet];
      return Array.from({ length: int(min, max) }, () => pick(chars)).join("");
    },
  };
}
