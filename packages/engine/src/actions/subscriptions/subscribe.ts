import type { NewSubscription } from "@oar/scheduler";
import { type CallOf, LIMITS } from "@oar/schema";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { refuse } from "../refusal";
import { requireSession } from "../sessions";
import { plural } from "../summary";
import { subscriptionView } from "./subscription-view";

const MINUTE_MS = 60_000;
/** A subscription that watches for stalls looks at its sessions' running turns a minute after it starts. */
const FIRST_STALL_CHECK_MS = MINUTE_MS;

export function subscriptionLimitMessage(held: number): string {
  return `This conversation already holds ${held} subscriptions, the most it may hold at a time (${LIMITS.subscriptionsPerConversation}, R-SUB-05). End one with unsubscribe, or look at them with list_subscriptions. Nothing was created.`;
}

/** The watched sessions, each checked: live, on this relay, and not the caller's own (R-SUB-06). */
async function checkSessions(ctx: ActionContext, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    if (id === ctx.callerId) {
      refuse(
        "REMOTE_RELAY_INVALID_INPUT",
        `sessions: "${id}" is this conversation itself, which a subscription never watches (R-SUB-06). Nothing was created.`,
      );
    }
    await requireSession(ctx, id, { allowArchived: false, nothing: "Nothing was created." });
  }
  return unique;
}

/**
 * §23.2: watches sessions of this relay. The first watch of a conversation asks the owner (card
 * (b), R-SUB-04) with its options (R-FEW-24); at most 20 at a time (R-SUB-05).
 */
export async function subscribe(ctx: ActionContext, call: CallOf<"subscribe">): Promise<ActionSuccess> {
  const all = call.sessions.includes("all");
  const sessions = all ? [] : await checkSessions(ctx, call.sessions);
  const { stores, clock } = ctx.deps;
  const limit = LIMITS.subscriptionsPerConversation;
  const held = await stores.subscriptions.countActiveSubscriptions(ctx.callerId);
  if (held >= limit) {
    refuse("REMOTE_RELAY_LIMIT", subscriptionLimitMessage(held));
  }
  await ctx.gate(call, {
    details: {
      subscription: {
        sessions: all ? "all" : sessions.length,
        ...(call.digest_minutes === undefined ? {} : { digestMinutes: call.digest_minutes }),
        ...(call.quiet_hours === undefined ? {} : { quietHours: call.quiet_hours }),
        ...(call.exclude === undefined ? {} : { excludeCount: call.exclude.length }),
      },
    },
  });
  const now = clock.now();
  const events = call.events === undefined ? null : [...new Set(call.events)];
  const firstTick = [
    call.heartbeat_minutes === undefined ? null : now + call.heartbeat_minutes * MINUTE_MS,
    events === null || events.includes("stalled") ? now + FIRST_STALL_CHECK_MS : null,
  ].filter((at): at is number => at !== null);
  const input: NewSubscription = {
    id: ctx.deps.ids.next("subscription"),
    watcher: ctx.callerId,
    // §28: a paired relay's conversation watches; that relay fetches the events (no message here).
    watcherRelay: ctx.from.relay,
    scope: all ? "all" : "list",
    sessions,
    exclude: call.exclude === undefined ? [] : [...new Set(call.exclude)],
    events,
    once: call.once,
    match: call.match ?? null,
    stalledMinutes: call.stalled_minutes,
    heartbeatMinutes: call.heartbeat_minutes ?? null,
    digestMinutes: call.digest_minutes ?? null,
    quietHours: call.quiet_hours ?? null,
    createdAt: now,
    nextTickAt: firstTick.length === 0 ? null : Math.min(...firstTick),
  };
  const created = await changeAtomically(ctx, async (tx) => {
    // Counted again inside the change: two calls at once cannot both take the 20th place.
    const count = await tx.deps.stores.subscriptions.countActiveSubscriptions(ctx.callerId);
    if (count >= limit) {
      refuse("REMOTE_RELAY_LIMIT", subscriptionLimitMessage(count));
    }
    return tx.deps.stores.subscriptions.createSubscription(input);
  });
  const watched = all ? "all sessions" : plural(sessions.length, "session");
  return {
    details: `${watched} (${created.id})`,
    fields: { subscription: await subscriptionView(stores, created) },
  };
}
