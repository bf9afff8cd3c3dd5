import { groupBy, toIso } from "@oar/core";
import { planTick, type SubscriptionRecord, stallCheckAt } from "@oar/scheduler";
import type { EngineStores } from "../ports/engine-stores";
import { watchedSessionIds } from "./watched-sessions";

const CLAIMED_PER_PASS = 100;

/**
 * One subscription's heartbeat and stall check (GAP-13, GAP-14), in the caller's transaction;
 * true when it appended an event.
 */
async function tick(
  stores: Pick<EngineStores, "events" | "sessions" | "subscriptions" | "tasks" | "transaction">,
  subscription: SubscriptionRecord,
  now: number,
): Promise<boolean> {
  const watched = await watchedSessionIds(stores, subscription);
  const watchedSet = new Set(watched);
  const turns = (await stores.sessions.listActiveTurns())
    .filter((turn) => turn.status === "running" && turn.startedAt !== null && watchedSet.has(turn.sessionId))
    .map((turn) => ({
      id: turn.id,
      sessionId: turn.sessionId,
      startedAt: turn.startedAt as number,
      lastOutputAt: turn.lastOutputAt,
    }));
  // Commands go quiet too (a background agent writes no output to watch).
  const tasks = (await stores.tasks.listRunningTasks()).filter(
    (task) => task.kind !== "subagent" && watchedSet.has(task.sessionId),
  );
  const running = [...turns, ...tasks];
  const taskOf = new Map(tasks.map((task) => [task.id, task]));
  const plan = planTick(subscription, running, now);
  const sessions =
    plan.heartbeatSlot === null && plan.stalled.length === 0
      ? []
      : (await stores.sessions.listSessions({ scope: "all" })).filter((session) =>
          watchedSet.has(session.id),
        );
  const titleOf = (id: string) => sessions.find((session) => session.id === id)?.title ?? "";
  for (const work of plan.stalled) {
    // One stalled event per silence of a turn or task and subscription: the id makes a second one a no-op.
    const id = `${subscription.id}.stalled.${work.id}.${work.silentSince}`;
    const task = taskOf.get(work.id);
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
        ...(task === undefined ? {} : { task_id: task.id, description: task.description }),
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
  return plan.stalled.length > 0 || plan.heartbeatSlot !== null;
}

/** Claims the subscriptions whose tick is due and runs them: whether any appended an event, and whether there may be more. */
export async function runDueTicks(
  stores: Pick<EngineStores, "events" | "sessions" | "subscriptions" | "tasks" | "transaction">,
  now: number,
): Promise<{ readonly appended: boolean; readonly more: boolean }> {
  return stores.transaction(async (tx) => {
    const due = await tx.subscriptions.claimDueTicks({ now, limit: CLAIMED_PER_PASS });
    let appended = false;
    for (const subscription of due) {
      appended = (await tick(tx, subscription, now)) || appended;
    }
    return { appended, more: due.length === CLAIMED_PER_PASS };
  });
}

/**
 * A turn started in a watched session: subscriptions that watch for stalls check it once it has
 * run their stalled_minutes (their tick moves earlier when that comes first). One statement per
 * stall time, however many subscriptions watch the session.
 */
export async function scheduleStallCheck(
  stores: Pick<EngineStores, "events" | "sessions" | "subscriptions" | "tasks" | "transaction">,
  around: readonly SubscriptionRecord[],
  startedAt: number,
): Promise<void> {
  const checks = around.flatMap((subscription) => {
    const at = stallCheckAt(subscription, startedAt);
    return at !== null && (subscription.nextTickAt === null || at < subscription.nextTickAt)
      ? [{ id: subscription.id, at }]
      : [];
  });
  for (const [at, moving] of groupBy(checks, (check) => check.at)) {
    await stores.subscriptions.advanceTicks({ ids: moving.map((check) => check.id), at });
  }
}
