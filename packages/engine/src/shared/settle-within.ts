import type { Clock } from "@oar/core";

/**
 * Resolves when `work` settles or `ms` of the clock have passed, whichever comes first: how close
 * waits for a pass in flight without letting a dead link (a store's 12 s deadline, a paired
 * relay's 10 s one) hold the whole relay's shutdown.
 */
export function settleWithin(clock: Clock, work: Promise<unknown> | null, ms: number): Promise<void> {
  if (work === null) {
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const timer = clock.setTimeout(resolve, ms);
    void work
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        clock.clearTimeout(timer);
        resolve();
      });
  });
}

/**
 * How long close waits for a pass in flight. A pass on a link that died waits for the store's
 * deadline (12 s); closing the stores ends it sooner, and its transaction changes nothing.
 */
export const CLOSE_GRACE_MS = 2_000;
