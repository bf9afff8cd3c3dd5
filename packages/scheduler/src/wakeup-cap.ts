import type { WakeupRecord } from "./ports/delivery-store";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** R-DLV-05: beyond 20 wake-ups per hour the rest arrives as a digest every 10 minutes. */
export const WAKEUPS_PER_HOUR = 20;
export const CAP_DIGEST_MINUTES = 10;

/**
 * Whether a batch without urgent events may wake the watcher at `now`, or until when the hourly
 * cap holds it. The cap counts the batches and urgent messages of the last hour (the cap's own
 * digests are how the rest arrives, so they do not count). Held, the batch goes out with the
 * cap's next digest: 10 minutes after the previous one, or at the next 10-minute mark of the
 * clock when there was none in the last hour — the same instant for every batch held meanwhile,
 * so they make one digest and digests come at most one per 10 minutes.
 */
export function capHoldUntil(wakeups: readonly WakeupRecord[], now: number): number | null {
  const since = now - HOUR_MS;
  const counted = wakeups.filter((wakeup) => wakeup.at > since && wakeup.kind !== "cap").length;
  if (counted < WAKEUPS_PER_HOUR) {
    return null;
  }
  const every = CAP_DIGEST_MINUTES * MINUTE_MS;
  const nextMark = (Math.floor(now / every) + 1) * every;
  const lastCap = wakeups.reduce<number | null>(
    (last, wakeup) => (wakeup.kind === "cap" && (last === null || wakeup.at > last) ? wakeup.at : last),
    null,
  );
  return lastCap === null ? nextMark : Math.max(lastCap + every, now);
}
