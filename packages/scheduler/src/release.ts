import type { DeliveryReason } from "./ports/delivery-store";
import type { SubscriptionRecord } from "./ports/subscription-store";
import { quietUntil } from "./quiet-hours";
import { isUrgent } from "./subscription-match";

const MINUTE_MS = 60_000;

/** R-DLV-04: events less than 30 s apart arrive in one message. */
export const GROUPING_WINDOW_MS = 30_000;

/**
 * When a subscription lets an event go: `at once` (urgent), into the watcher's grouping window
 * (no option holds it), or held by its digest or quiet hours until `dueAt`.
 */
export type Release =
  | { readonly reason: "urgent"; readonly dueAt: number }
  | { readonly reason: "window" }
  | { readonly reason: "digest" | "quiet"; readonly dueAt: number };

/**
 * R-FEW-04: the digest goes out every N minutes, the first N minutes after the subscription was
 * created and each next one N minutes after the previous one; the due time is the first slot of
 * that grid at or after `now` that is also N minutes after the last digest.
 */
export function nextDigestAt(
  subscription: Pick<SubscriptionRecord, "createdAt" | "digestMinutes" | "lastDigestAt">,
  now: number,
): number | null {
  if (subscription.digestMinutes === null) {
    return null;
  }
  const every = subscription.digestMinutes * MINUTE_MS;
  const earliest = Math.max(now, subscription.createdAt + every, (subscription.lastDigestAt ?? 0) + every);
  const steps = Math.ceil((earliest - subscription.createdAt) / every);
  return subscription.createdAt + steps * every;
}

/**
 * How one subscription lets an event go at `now` (R-FEW-02, R-FEW-04, R-FEW-09, R-FEW-11):
 * urgent events at once; else a digest holds it to its next slot, and quiet hours hold it (or
 * that slot) to the window's end.
 */
export function releaseOf(
  subscription: Pick<SubscriptionRecord, "createdAt" | "digestMinutes" | "lastDigestAt" | "quietHours">,
  kind: string,
  now: number,
): Release {
  if (isUrgent(kind)) {
    return { reason: "urgent", dueAt: now };
  }
  const digestAt = nextDigestAt(subscription, now);
  const at = digestAt ?? now;
  const quietEnd = subscription.quietHours === null ? null : quietUntil(subscription.quietHours, at);
  if (quietEnd !== null) {
    return { reason: "quiet", dueAt: quietEnd };
  }
  return digestAt === null ? { reason: "window" } : { reason: "digest", dueAt: digestAt };
}

/**
 * R-FEW-21: an event caught by several subscriptions goes out as soon as the first lets it go;
 * a subscription that lets it into the window lets it go at once. Ties keep the first given.
 */
export function firstRelease<T extends { readonly release: Release }>(
  candidates: readonly T[],
): T | undefined {
  const rank = (release: Release) =>
    release.reason === "urgent" || release.reason === "window" ? -1 : release.dueAt;
  let best: T | undefined;
  for (const candidate of candidates) {
    if (best === undefined || rank(candidate.release) < rank(best.release)) {
      best = candidate;
    }
  }
  return best;
}

/** The delivery's reason and due time, given where the watcher's open window ends (if one is open). */
export function deliveryTiming(
  release: Release,
  now: number,
  openWindowEnd: number | null,
): { readonly reason: DeliveryReason; readonly dueAt: number } {
  if (release.reason === "window") {
    return { reason: "window", dueAt: openWindowEnd ?? now + GROUPING_WINDOW_MS };
  }
  return release;
}
