import { RelayError } from "@oar/core";
import type { OwnerSubscription, OwnerUnsubscribeResult } from "@oar/schema";
import { subscriptionEntries } from "../actions/subscriptions/subscription-view";
import { type OwnerContext, ownerChange } from "./owner-context";

/**
 * The `watching N sessions` chip (R-UI-06): the live subscriptions the conversation holds as the
 * watcher, oldest first, each as list_subscriptions shows it and with the relay it watches. A
 * paired relay's conversation watching here is that relay's to show, not this one's.
 */
export async function watcherSubscriptions(
  ctx: OwnerContext,
  sessionId: string,
): Promise<OwnerSubscription[]> {
  const { stores } = ctx.deps;
  const held = (await stores.subscriptions.listActiveSubscriptionsOf([sessionId])).filter(
    (subscription) => subscription.watcherRelay === null,
  );
  const entries = await subscriptionEntries(stores, held);
  // One entry per subscription, in the same order.
  return held.flatMap((subscription, i) => {
    const entry = entries[i];
    return entry === undefined
      ? []
      : [{ ...entry, relay: subscription.relay, exclude: [...subscription.exclude] }];
  });
}

/**
 * Unsubscribe in the chip (R-SLIFE-02 (a)): ends the subscription as the agent's unsubscribe
 * does, `unsubscribed`, in one change. A mirror of a subscription on a paired relay (§28) ends
 * here at once; the relay's poller then unsubscribes it there, every poll until that relay
 * confirms, so the owner's button neither waits on nor fails for a relay that is offline.
 */
export async function unsubscribeOwner(ctx: OwnerContext, id: string): Promise<OwnerUnsubscribeResult> {
  const { stores, clock } = ctx.deps;
  const subscription = await stores.subscriptions.getSubscription(id);
  if (subscription === null) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No subscription ${id} on this relay.`);
  }
  if (subscription.watcherRelay !== null) {
    throw new RelayError(
      "REMOTE_RELAY_NOT_FOUND",
      `No subscription ${id} of a conversation of this relay: relay "${subscription.watcherRelay}" holds it here for its own conversation, and unsubscribes it there.`,
    );
  }
  if (subscription.endedAt !== null) {
    return {
      ended: [],
      note: `Subscription ${id} had already ended (${subscription.endReason ?? "ended"}); nothing changed.`,
    };
  }
  const ended = await ownerChange(ctx, (tx) =>
    tx.deps.stores.subscriptions.endSubscriptions({ ids: [id], reason: "unsubscribed", at: clock.now() }),
  );
  return ended.length > 0
    ? { ended }
    : { ended, note: `Subscription ${id} ended meanwhile; nothing changed.` };
}
