import type { WakeupRecord } from "./ports/delivery-store";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** R-DLV-05: beyond 20 wake-ups per hour the rest arrives as a digest every 10 minutes. */
export const WAKEUPS_PER_HOUR = 20;
export const CAP_DIGEST_MINUTES = 10;

/**
 * Whether a batch without urgent events may wake the watcher at `now`, or until when the hourly
 * cap holds it. The cap counts the batches and urgent messages of the last hour (the cap's own
 * digests are how the rest arrives, so they do not count); held, the batch goes out as the next
 * cap digest, 10 minutes after the previous one or from now.
 */
export function capHoldUntil(wakeups: readonly WakeupRecord[], now: number): number | null {
  const since = now - HOUR_MS;
  const counted = wakeups.filter((wakeup) => wakeup.at > since && wakeup.kind !== "cap").length;
  if (counted < WAKEUPS_PER_HOUR) {
    return null;
  }
  const lastCap = wakeups.reduce<number | null>(
    (last, wakeup) => (wakeup.kind === "cap" && (last === null || wakeup.at > last) ? wakeup.at : last),
    null,
  );
  const every = CAP_DIGEST_MINUTES * MINUTE_MS;
  return lastCap === null || lastCap + every <= now ? now + every : lastCap + every;
}
