import type { CallOf } from "@oar/schema";
import type { ActionContext, ActionSuccess } from "../context";
import { refuse } from "../refusal";
import { requireSession } from "../sessions";
import { plural } from "../summary";
import { subscriptionEntries } from "./subscription-view";

/** R-SLIFE-03: ended subscriptions stay listed for an hour. */
export const ENDED_SHOWN_MS = 3_600_000;

/** §30: the conversation's subscriptions, or with `watcher` another conversation's (R-LSUB-02). */
export async function listSubscriptions(
  ctx: ActionContext,
  call: CallOf<"list_subscriptions">,
): Promise<ActionSuccess> {
  const { stores, clock } = ctx.deps;
  const watcher = call.watcher ?? ctx.callerId;
  if (call.watcher !== undefined && call.watcher !== ctx.callerId && ctx.from.relay !== null) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `watcher: another relay's agent lists its own subscriptions on relay "${ctx.deps.relay.name}" only.`,
    );
  }
  if (call.watcher !== undefined && call.watcher !== ctx.callerId) {
    await requireSession(ctx, call.watcher, { allowArchived: true });
  }
  // §28: a paired relay's agent sees the subscriptions its relay holds here, no other.
  const subscriptions = (
    await stores.subscriptions.listSubscriptions({ watcher, endedSince: clock.now() - ENDED_SHOWN_MS })
  ).filter((subscription) => subscription.watcherRelay === ctx.from.relay);
  const entries = await subscriptionEntries(stores, subscriptions);
  const active = entries.filter((entry) => entry.active).length;
  return {
    details: `${plural(active, "active subscription")}${entries.length > active ? `, ${entries.length - active} ended` : ""}`,
    fields: { ...(call.watcher === undefined ? {} : { watcher }), subscriptions: entries },
  };
}
