import type { Clock } from "./clock";

/**
 * Remembers a value (as the promise that loads it) for `ttlMs` of the clock's time. Callers that
 * write through the same process delete the key, so only other processes' writes wait for the TTL.
 */
export interface TtlCache<K, V> {
  get(key: K, load: () => Promise<V>): Promise<V>;
  delete(key: K): void;
  clear(): void;
}

export function createTtlCache<K, V>(options: {
  readonly clock: Clock;
  readonly ttlMs: number;
  /** Which loaded values to keep; the others are loaded again on every call. Default: all. */
  readonly keep?: (value: V) => boolean;
}): TtlCache<K, V> {
  const entries = new Map<K, { readonly value: Promise<V>; readonly until: number }>();
  return {
    get(key, load) {
      const now = options.clock.now();
      const hit = entries.get(key);
      if (hit && hit.until > now) {
        return hit.value;
      }
      const value = load();
      const entry = { value, until: now + options.ttlMs };
      entries.set(key, entry);
      // A failed or unwanted load is not remembered: the next call loads again.
      const forget = () => {
        if (entries.get(key) === entry) {
          entries.delete(key);
        }
      };
      value.then((loaded) => (options.keep && !options.keep(loaded) ? forget() : undefined), forget);
      return value;
    },
    delete: (key) => entries.delete(key),
    clear: () => entries.clear(),
  };
}
