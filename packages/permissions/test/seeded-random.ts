// The property tests' cases come from a seeded generator (fast-check is not a dependency of this
// package), and a failure names its seed.
import { type Random, seededRandom } from "@oar/core/testing";

export type { Random };

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
