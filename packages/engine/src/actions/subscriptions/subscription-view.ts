import { toIso } from "@oar/core";
import { eventsOf, type HeldSummary, type SubscriptionRecord } from "@oar/scheduler";
import type { Subscription, SubscriptionEntry } from "@oar/schema";
import type { EngineStores } from "../../ports/engine-stores";

/** A subscription as subscribe returns it (R-SUB-10) and list_subscriptions shows it (R-LSUB-04, R-LSUB-07). */
export async function subscriptionView(
  stores: Pick<EngineStores, "deliveries" | "sessions">,
  subscription: SubscriptionRecord,
): Promise<Subscription> {
  const sessions =
    subscription.scope === "all"
      ? ("all" as const)
      : await Promise.all(
          subscription.sessions.map(async (id) => ({
            id,
            title: (await stores.sessions.getSession(id))?.title ?? "",
          })),
        );
  return {
    id: subscription.id,
    scope: subscription.scope,
    sessions,
    events: [...eventsOf(subscription)],
    once: subscription.once,
    match: subscription.match,
    stalledMinutes: subscription.stalledMinutes,
    heartbeatMinutes: subscription.heartbeatMinutes,
    ...(subscription.digestMinutes === null ? {} : { digestMinutes: subscription.digestMinutes }),
    ...(subscription.quietHours === null ? {} : { quietHours: subscription.quietHours }),
    ...(subscription.exclude.length === 0 ? {} : { exclude: [...subscription.exclude] }),
  };
}

/**
 * A list_subscriptions entry: an active one with what its digest or quiet hours hold (R-LSUB-05);
 * an ended one with its reason, and what it holds only while it still holds something (R-LSUB-06).
 */
export async function subscriptionEntry(
  stores: Pick<EngineStores, "deliveries" | "sessions">,
  subscription: SubscriptionRecord,
  held: HeldSummary | undefined,
): Promise<SubscriptionEntry> {
  const view = await subscriptionView(stores, subscription);
  const active = subscription.endedAt === null;
  const holding =
    held === undefined
      ? { heldCount: 0, nextDeliveryAt: null }
      : { heldCount: held.heldCount, nextDeliveryAt: toIso(held.nextDeliveryAt) };
  return {
    ...view,
    active,
    ...(active || held !== undefined ? holding : {}),
    ...(subscription.endReason === null ? {} : { endReason: subscription.endReason }),
    ...(subscription.endedAt === null ? {} : { endedAt: toIso(subscription.endedAt) }),
  };
}

/** list_subscriptions' entries of `subscriptions`, in their order, with what each one holds now. */
export async function subscriptionEntries(
  stores: Pick<EngineStores, "deliveries" | "sessions">,
  subscriptions: readonly SubscriptionRecord[],
): Promise<SubscriptionEntry[]> {
  const held = new Map(
    (await stores.deliveries.heldBySubscriptions(subscriptions.map((s) => s.id))).map((h) => [
      h.subscriptionId,
      h,
    ]),
  );
  return Promise.all(
    subscriptions.map((subscription) => subscriptionEntry(stores, subscription, held.get(subscription.id))),
  );
}
