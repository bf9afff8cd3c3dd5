export type TimerId = { readonly __timer: unique symbol } | number | object;

/** Every reading of time and every timer goes through a Clock, so tests can drive time by hand. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
}

/**
 * The real clock. It looks the globals up on each call rather than capturing them, so test
 * tooling that swaps the globals (vi.useFakeTimers) still takes effect.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms) as unknown as TimerId,
  clearTimeout: (id) => globalThis.clearTimeout(id as Parameters<typeof globalThis.clearTimeout>[0]),
};

/** Resolves after `ms` of the given clock's time; with a fake clock, when the test advances it. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(resolve, ms);
  });
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
