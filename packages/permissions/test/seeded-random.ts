// A small seeded generator for the property tests: fast-check is not a dependency of this
// package, so the cases come from mulberry32 with fixed seeds, and a failure names its seed.

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

/** Runs `property` for `runs` seeds; the assertion message carries the failing seed. */
export function forSeeds(runs: number, property: (random: Random) => void): void {
  for (let seed = 1; seed <= runs; seed += 1) {
    try {
      property(seededRandom(seed));
    } catch (error) {
      throw new Error(
        `property failed for seed ${seed}: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }
}
