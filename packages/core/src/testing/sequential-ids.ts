import { ID_PREFIXES, type IdGenerator } from "../ids";

/** Predictable ids for tests: ses_000000000001, ses_000000000002, … per kind. */
export function createSequentialIdGenerator(): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(kind) {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      return `${ID_PREFIXES[kind]}_${String(n).padStart(12, "0")}`;
    },
  };
}
