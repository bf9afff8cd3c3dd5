import { type CallOf, LIMITS } from "@oar/schema";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { refuse } from "../refusal";
import { requireSession } from "../sessions";
import { plural } from "../summary";
import { subscriptionLimitMessage } from "./subscribe";

/**
 * §31: moves every active subscription of `from` to this conversation, with what their digests
 * and quiet hours hold; always on the owner's card (e) (R-XFER-02).
 */
export async function transferSubscriptions(
  ctx: ActionContext,
  call: CallOf<"transfer_subscriptions">,
): Promise<ActionSuccess> {
  if (call.from === ctx.callerId) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `from: "${call.from}" is this conversation itself; name the conversation whose subscriptions move here. Nothing was moved.`,
    );
  }
  await requireSession(ctx, call.from, { allowArchived: true, nothing: "Nothing was moved." });
  const { stores } = ctx.deps;
  const moving = await stores.subscriptions.countActiveSubscriptions(call.from);
  const held = await stores.subscriptions.countActiveSubscriptions(ctx.callerId);
  if (moving > 0 && held + moving > LIMITS.subscriptionsPerConversation) {
    refuse(
      "REMOTE_RELAY_LIMIT",
      `${subscriptionLimitMessage(held).replace(" Nothing was created.", "")} Taking over the ${moving} of ${call.from} would make ${held + moving}. Nothing was moved.`,
    );
  }
  await ctx.gate(call, { details: { transferFrom: call.from } });
  const transferred = await changeAtomically(ctx, async (tx) => {
    const ids = await tx.deps.stores.subscriptions.transferSubscriptions({
      from: call.from,
      to: ctx.callerId,
    });
    await tx.deps.stores.deliveries.moveWatcher({ from: call.from, to: ctx.callerId });
    return ids;
  });
  return {
    details: `${plural(transferred.length, "subscription")} from ${call.from}`,
    fields: { from: call.from, transferred },
  };
}
