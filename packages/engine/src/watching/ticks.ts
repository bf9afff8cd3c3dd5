import { toIso } from "@oar/core";
import { planTick, type SubscriptionRecord } from "@oar/scheduler";
import type { EngineStores } from "../engine";
import { watchedSessionIds } from "./watched-sessions";

const CLAIMED_PER_PASS = 100;

/** One subscription's heartbeat and stall check (GAP-13, GAP-14), in the caller's transaction. */
async function tick(stores: EngineStores, subscription: SubscriptionRecord, now: number): Promise<void> {
  const watched = await watchedSessionIds(stores, subscription);
  const watchedSet = new Set(watched);
  const running = (await stores.sessions.listActiveTurns())
    .filter((turn) => turn.status === "running" && turn.startedAt !== null && watchedSet.has(turn.sessionId))
    .map((turn) => ({ id: turn.id, sessionId: turn.sessionId, startedAt: turn.startedAt as number }));
  const plan = planTick(subscription, running, new Set(), now);
  const sessions =
    plan.heartbeatSlot === null && plan.stalled.length === 0
      ? []
      : (await stores.sessions.listSessions({ scope: "all" })).filter((session) =>
          watchedSet.has(session.id),
        );
  const titleOf = (id: string) => sessions.find((session) => session.id === id)?.title ?? "";
  for (const work of plan.stalled) {
    // One stalled event per turn and subscription: the id makes a second one a no-op.
    const id = `${subscription.id}.stalled.${work.id}`;
    await stores.events.appendEvent({
      id,
      sessionId: work.sessionId,
      subscriptionId: subscription.id,
      event: {
        kind: "stalled",
        id,
        at: toIso(now),
        subscription_id: subscription.id,
        session: work.sessionId,
        title: titleOf(work.sessionId),
        minutes: subscription.stalledMinutes,
      },
      at: now,
    });
  }
  if (plan.heartbeatSlot !== null) {
    const id = `${subscription.id}.heartbeat.${plan.heartbeatSlot}`;
    await stores.events.appendEvent({
      id,
      sessionId: null,
      subscriptionId: subscription.id,
      event: {
        kind: "heartbeat",
        id,
        at: toIso(now),
        subscription_id: subscription.id,
        session: null,
        title: null,
        sessions: sessions.map((session) => ({ id: session.id, title: session.title, state: session.state })),
      },
      at: now,
    });
  }
  await stores.subscriptions.setTiming(subscription.id, { nextTickAt: plan.nextTickAt });
}

/** Claims the subscriptions whose tick is due and runs them; true when there may be more. */
export async function runDueTicks(stores: EngineStores, now: number): Promise<boolean> {
  return stores.transaction(async (tx) => {
    const due = await tx.subscriptions.claimDueTicks({ now, limit: CLAIMED_PER_PASS });
    for (const subscription of due) {
      await tick(tx, subscription, now);
    }
    return due.length === CLAIMED_PER_PASS;
  });
}

/**
 * A turn started in a watched session: subscriptions that watch for stalls check it once it has
 * run their stalled_minutes (their tick moves earlier when that comes first).
 */
export async function scheduleStallCheck(
  stores: EngineStores,
  around: readonly SubscriptionRecord[],
  startedAt: number,
): Promise<void> {
  for (const subscription of around) {
    const plan = planTick(subscription, [{ id: "", sessionId: "", startedAt }], new Set(), startedAt);
    const at = plan.nextTickAt;
    if (at !== null && (subscription.nextTickAt === null || at < subscription.nextTickAt)) {
      await stores.subscriptions.setTiming(subscription.id, { nextTickAt: at });
    }
  }
}
