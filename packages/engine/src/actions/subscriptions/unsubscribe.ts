import type { CallOf } from "@oar/schema";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { refuse } from "../refusal";
import { plural } from "../summary";

/** §29: ends one of the conversation's subscriptions, or with "all" every one it holds here (R-UNSUB-01). */
export async function unsubscribe(ctx: ActionContext, call: CallOf<"unsubscribe">): Promise<ActionSuccess> {
  const { stores, clock } = ctx.deps;
  const id = call.subscription_id;
  let ids: string[];
  if (id === "all") {
    ids = (await stores.subscriptions.listSubscriptions({ watcher: ctx.callerId, endedSince: null }))
      .filter((subscription) => subscription.watcherRelay === ctx.from.relay)
      .map((subscription) => subscription.id);
  } else {
    const subscription = await stores.subscriptions.getSubscription(id);
    if (
      subscription === null ||
      subscription.watcher !== ctx.callerId ||
      subscription.watcherRelay !== ctx.from.relay
    ) {
      refuse(
        "REMOTE_RELAY_NOT_FOUND",
        `No subscription "${id}" of this conversation on relay "${ctx.deps.relay.name}". list_subscriptions shows them.`,
      );
    }
    ids = [subscription.id];
  }
  await ctx.gate(call);
  const ended = await changeAtomically(ctx, (tx) =>
    tx.deps.stores.subscriptions.endSubscriptions({ ids, reason: "unsubscribed", at: clock.now() }),
  );
  const notes =
    id !== "all" && ended.length === 0 ? [`Subscription ${id} had already ended; nothing changed.`] : [];
  return { details: `${plural(ended.length, "subscription")} ended`, fields: { ended }, notes };
}
