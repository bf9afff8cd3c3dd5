import type { IdGenerator } from "@oar/core";
import {
  deliveryTiming,
  eventLine,
  eventsOf,
  firstRelease,
  type NewDelivery,
  receives,
  releaseOf,
  type SubscriptionRecord,
  watches,
} from "@oar/scheduler";
import type { EngineStores } from "../engine";
import type { OutboxRecord } from "../ports/event-store";
import { scheduleStallCheck } from "./ticks";

/** Outbox rows no subscription receives: they are for the owner's stream and later consumers. */
const NOT_ROUTED = new Set(["turn_started", "session_archived", "session_deleted"]);
/** Ends after which a watched session may have become idle (all_idle, GAP-13). */
const IDLE_AFTER = new Set(["turn_end", "task_finished", "task_failed", "subagent_finished"]);

export interface RoutingContext {
  readonly stores: EngineStores;
  readonly ids: IdGenerator;
  readonly now: number;
}

/** The subscriptions an outbox row may concern: its own subscription's, or those watching its session. */
async function candidates(ctx: RoutingContext, record: OutboxRecord): Promise<SubscriptionRecord[]> {
  const { subscriptions } = ctx.stores;
  if (record.subscriptionId !== null) {
    const one = await subscriptions.getSubscription(record.subscriptionId);
    return one === null ? [] : [one];
  }
  return record.sessionId === null ? [] : subscriptions.listSubscriptionsWatching(record.sessionId);
}

/**
 * R-FEW-21: for each watcher, the subscription that lets the event go first; `once`
 * subscriptions that received it end (R-SUB-09; the event still respects their options, R-FEW-20).
 */
async function deliver(ctx: RoutingContext, record: OutboxRecord, receiving: readonly SubscriptionRecord[]) {
  const { deliveries, subscriptions } = ctx.stores;
  const byWatcher = new Map<string, SubscriptionRecord[]>();
  // §28: a paired relay's conversation gets no message from here; that relay fetches the events.
  for (const subscription of receiving.filter((s) => s.watcherRelay === null)) {
    byWatcher.set(subscription.watcher, [...(byWatcher.get(subscription.watcher) ?? []), subscription]);
  }
  const firsts = [...byWatcher].flatMap(([watcher, held]) => {
    const first = firstRelease(
      held.map((subscription) => ({ subscription, release: releaseOf(subscription, record.kind, ctx.now) })),
    );
    return first === undefined ? [] : [{ watcher, held, ...first }];
  });
  // A fixed number of statements per event, whatever its number of watchers.
  const urgent = firsts.filter((first) => first.release.reason === "urgent").map((first) => first.watcher);
  // An urgent event closes its watchers' windows: what they held goes out with it (Grouping).
  await deliveries.closeWindows({ watchers: urgent, at: ctx.now });
  const openEnds = await deliveries.openWindowEnds(
    firsts.filter((first) => first.release.reason === "window").map((first) => first.watcher),
  );
  const event = record.event;
  const rows = firsts.map(({ watcher, subscription, release }): NewDelivery => {
    const timing = deliveryTiming(release, ctx.now, openEnds.get(watcher) ?? null);
    // R-ECHO-04: a turn_end that ends a once subscription wakes the watcher all the same.
    const echo =
      event.kind === "turn_end" && event.prompted_by === watcher && !subscription.once
        ? (event.turn_id ?? null)
        : null;
    return {
      id: ctx.ids.next("delivery"),
      watcher,
      subscriptionId: subscription.id,
      eventId: record.id,
      eventSeq: record.seq,
      reason: timing.reason,
      dueAt: timing.dueAt,
      echoTurnId: echo,
      createdAt: ctx.now,
    };
  });
  if (rows.length > 0) {
    await deliveries.addDeliveries(rows);
  }
  const once = firsts.flatMap((first) => first.held.filter((s) => s.once).map((s) => s.id));
  if (once.length > 0) {
    await subscriptions.endSubscriptions({ ids: once, reason: "once", at: ctx.now });
  }
}

/**
 * all_idle (GAP-13): after a turn or task ends in a watched session, every subscription asking for
 * it whose watched sessions (exclude honoured, R-FEW-18) now run nothing gets its own event.
 */
async function noticeAllIdle(
  ctx: RoutingContext,
  record: OutboxRecord,
  around: readonly SubscriptionRecord[],
) {
  if (!IDLE_AFTER.has(record.kind) || record.sessionId === null) {
    return;
  }
  const asking = around.filter(
    (subscription) =>
      subscription.endedAt === null &&
      eventsOf(subscription).includes("all_idle") &&
      watches(subscription, record.sessionId as string),
  );
  if (asking.length === 0) {
    return;
  }
  const active = new Set((await ctx.stores.sessions.listActiveTurns()).map((turn) => turn.sessionId));
  // Read once for every `all` subscription of this event, not once each.
  let live: Promise<string[]> | undefined;
  const liveSessions = () => {
    live ??= ctx.stores.sessions
      .listSessions({ scope: "active" })
      .then((sessions) => sessions.map((session) => session.id));
    return live;
  };
  for (const subscription of asking) {
    const watched =
      subscription.scope === "list"
        ? [...subscription.sessions]
        : (await liveSessions()).filter((id) => watches(subscription, id));
    if (watched.some((id) => active.has(id))) {
      continue;
    }
    const id = `${record.id}.idle.${subscription.id}`;
    await ctx.stores.events.appendEvent({
      id,
      sessionId: null,
      subscriptionId: subscription.id,
      event: {
        kind: "all_idle",
        id,
        at: record.event.at,
        subscription_id: subscription.id,
        session: record.sessionId,
        title: "title" in record.event ? record.event.title : null,
        watchedCount: watched.length,
      },
      at: ctx.now,
    });
  }
}

/**
 * Routes one outbox row: a delivery per watcher that receives it, and the all_idle it may cause;
 * a turn that starts moves the stall checks of the subscriptions watching it (GAP-13).
 */
export async function routeEvent(ctx: RoutingContext, record: OutboxRecord): Promise<void> {
  if (record.kind === "turn_started" && record.sessionId !== null) {
    const session = record.sessionId;
    const around = await candidates(ctx, record);
    await scheduleStallCheck(
      ctx.stores,
      around.filter((subscription) => watches(subscription, session)),
      record.at,
    );
    return;
  }
  if (NOT_ROUTED.has(record.kind)) {
    return;
  }
  const around = await candidates(ctx, record);
  if (around.length === 0) {
    return;
  }
  const line = eventLine(record.event);
  const receiving = around.filter((subscription) =>
    receives(subscription, {
      event: record.event,
      sessionId: record.sessionId,
      subscriptionId: record.subscriptionId,
      line,
    }),
  );
  await deliver(ctx, record, receiving);
  await noticeAllIdle(ctx, record, around);
}
