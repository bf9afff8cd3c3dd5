import { type CallOf, LIMITS } from "@oar/schema";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { refuse } from "../refusal";
import { requireSession } from "../sessions";
import { plural } from "../summary";
import { subscriptionLimitMessage } from "./subscribe";

/** R-SUB-05 for a transfer: the conversation would hold more than 20 active subscriptions. */
export function refuseTransferPastLimit(held: number, moving: number, from: string): void {
  if (moving > 0 && held + moving > LIMITS.subscriptionsPerConversation) {
    refuse(
      "REMOTE_RELAY_LIMIT",
      `${subscriptionLimitMessage(held).replace(" Nothing was created.", "")} Taking over the ${moving} of ${from} would make ${held + moving}. Nothing was moved.`,
    );
  }
}

export function refuseTransferFromItself(ctx: ActionContext, from: string): void {
  if (from === ctx.callerId) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `from: "${from}" is this conversation itself; name the conversation whose subscriptions move here. Nothing was moved.`,
    );
  }
}

/**
 * §31: moves every active subscription `from` holds on this relay to the calling conversation,
 * with what their digests and quiet hours hold; always on the owner's card (e) (R-XFER-02). A
 * paired relay's agent (§28) moves those of another conversation of its own relay: `from` is
 * one of that relay's conversations, and this relay's own are out of its reach.
 */
export async function transferSubscriptions(
  ctx: ActionContext,
  call: CallOf<"transfer_subscriptions">,
): Promise<ActionSuccess> {
  refuseTransferFromItself(ctx, call.from);
  const watcherRelay = ctx.from.relay;
  if (watcherRelay === null) {
    await requireSession(ctx, call.from, { allowArchived: true, nothing: "Nothing was moved." });
  }
  const { stores } = ctx.deps;
  // The active ones only; of those, the ones kept here for that relay.
  const ofFrom = (
    await stores.subscriptions.listSubscriptions({ watcher: call.from, endedSince: null })
  ).filter((subscription) => subscription.watcherRelay === watcherRelay && subscription.relay === null);
  const held = await stores.subscriptions.countActiveSubscriptions(ctx.callerId);
  refuseTransferPastLimit(held, ofFrom.length, call.from);
  await ctx.gate(call, { details: { transferFrom: call.from } });
  const transferred = await changeAtomically(ctx, async (tx) => {
    const ids = await tx.deps.stores.subscriptions.transferSubscriptions({
      from: call.from,
      to: ctx.callerId,
      watcherRelay,
    });
    // A paired relay's conversations get no delivery here (§28): that relay fetches the events.
    if (watcherRelay === null) {
      await tx.deps.stores.deliveries.moveWatcher({
        from: call.from,
        to: ctx.callerId,
        subscriptionIds: ids,
      });
    }
    return ids;
  });
  return {
    details: `${plural(transferred.length, "subscription")} from ${call.from}`,
    fields: { from: call.from, transferred },
  };
}
