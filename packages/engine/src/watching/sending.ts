import type { IdGenerator } from "@oar/core";
import {
  capHoldUntil,
  type DeliveryRecord,
  eventMessage,
  type MessageSection,
  type SubscriptionRecord,
} from "@oar/scheduler";
import type { OutboxEvent } from "@oar/schema";
import type { EngineStores } from "../engine";

const HOUR_MS = 3_600_000;
/**
 * How long a turn_end the watcher may have collected itself waits at least (R-ECHO-02): the wait
 * that returned the reply notes it right after the turn ends, and an urgent event must not send
 * the turn_end out before that note is written.
 */
export const ECHO_GRACE_MS = 3_000;

export interface SendingContext {
  readonly stores: EngineStores;
  readonly ids: IdGenerator;
  readonly now: number;
  /** The watcher's agent runs outside the relay: its messages are appended, no turn starts (DESIGN §5). */
  readonly drivenFromOutside: (provider: string) => boolean;
}

/** What one pass did for a watcher: the session whose queue must be kicked once committed. */
export interface Sent {
  readonly watcher: string;
  readonly messageId: string;
  readonly startsTurn: boolean;
}

function sectionsOf(
  due: readonly DeliveryRecord[],
  events: ReadonlyMap<string, OutboxEvent>,
  subscriptions: ReadonlyMap<string, SubscriptionRecord>,
): MessageSection[] {
  const eventsOf = (rows: readonly DeliveryRecord[]) =>
    rows.map((row) => events.get(row.eventId)).filter((event): event is OutboxEvent => event !== undefined);
  const sections: MessageSection[] = [];
  const atOnce = due.filter((row) => row.reason === "window" || row.reason === "urgent");
  if (atOnce.length > 0) {
    sections.push({ events: eventsOf(atOnce) });
  }
  for (const reason of ["digest", "quiet"] as const) {
    const bySubscription = new Map<string, DeliveryRecord[]>();
    for (const row of due.filter((r) => r.reason === reason)) {
      const key = row.subscriptionId ?? "";
      bySubscription.set(key, [...(bySubscription.get(key) ?? []), row]);
    }
    for (const [id, rows] of bySubscription) {
      const subscription = subscriptions.get(id);
      sections.push({
        events: eventsOf(rows),
        ...(reason === "digest" && subscription?.digestMinutes
          ? { digest: { subscriptionId: id, minutes: subscription.digestMinutes } }
          : {}),
        ...(reason === "quiet" && subscription?.quietHours ? { quietHours: subscription.quietHours } : {}),
      });
    }
  }
  const capped = due.filter((row) => row.reason === "cap");
  if (capped.length > 0) {
    // R-DLV-07: when the cap's digest and one subscription's digest coincide, one line names both.
    const ids = new Set(capped.map((row) => row.subscriptionId));
    const only = ids.size === 1 ? subscriptions.get([...ids][0] ?? "") : undefined;
    sections.push({
      events: eventsOf(capped),
      cap: true,
      ...(only?.digestMinutes ? { digest: { subscriptionId: only.id, minutes: only.digestMinutes } } : {}),
    });
  }
  return sections.filter((section) => section.events.length > 0);
}

/** Drops the turn_ends the watcher collected itself (R-ECHO-01) and keeps back those still in doubt. */
async function withoutEchoes(
  ctx: SendingContext,
  watcher: string,
  due: readonly DeliveryRecord[],
  events: ReadonlyMap<string, OutboxEvent>,
): Promise<DeliveryRecord[]> {
  const echoes = due.filter((row) => row.echoTurnId !== null);
  if (echoes.length === 0) {
    return [...due];
  }
  const { deliveries } = ctx.stores;
  const collected = new Set(
    await deliveries.collectedReplies({
      sessionId: watcher,
      turnIds: echoes.map((row) => row.echoTurnId as string),
    }),
  );
  const dropped = echoes.filter((row) => collected.has(row.echoTurnId as string));
  if (dropped.length > 0) {
    await deliveries.markDropped({ ids: dropped.map((row) => row.id), at: ctx.now });
  }
  const kept: DeliveryRecord[] = [];
  for (const row of due) {
    if (dropped.includes(row)) {
      continue;
    }
    const at = Date.parse(events.get(row.eventId)?.at ?? "");
    if (row.echoTurnId !== null && at + ECHO_GRACE_MS > ctx.now) {
      await deliveries.postpone({ ids: [row.id], dueAt: at + ECHO_GRACE_MS, reason: row.reason });
      continue;
    }
    kept.push(row);
  }
  return kept;
}

/**
 * Sends one watcher's due deliveries as one message (R-DLV-01, R-DLV-04), inside the caller's
 * transaction: the message, its turn and the deliveries marked sent commit together, so a crash
 * before the commit leaves them pending and nothing is sent twice. Returns null when nothing went.
 */
export async function sendToWatcher(
  ctx: SendingContext,
  watcher: string,
  due: readonly DeliveryRecord[],
): Promise<Sent | null> {
  const { stores, now } = ctx;
  // Independent reads go out together: on Postgres they share the transaction's round trips.
  const [session, records, wakeups] = await Promise.all([
    stores.sessions.getSession(watcher),
    stores.events.getEvents(due.map((row) => row.eventId)),
    stores.deliveries.listWakeups({ watcher, since: now - HOUR_MS }),
  ]);
  if (session === null || session.archivedAt !== null) {
    // Its subscriptions ended with it (R-SLIFE-02 (b)); what was on its way goes nowhere.
    await stores.deliveries.markDropped({ ids: due.map((row) => row.id), at: now });
    return null;
  }
  const events = new Map(records.map((record) => [record.id, record.event]));
  const kept = await withoutEchoes(ctx, watcher, due, events);
  if (kept.length === 0) {
    return null;
  }
  const urgent = kept.some((row) => row.reason === "urgent");
  const capDue = kept.some((row) => row.reason === "cap");
  if (!urgent && !capDue) {
    const hold = capHoldUntil(wakeups, now);
    if (hold !== null) {
      // R-DLV-05: past the hourly cap, the rest waits for the cap's next digest.
      await stores.deliveries.postpone({ ids: kept.map((row) => row.id), dueAt: hold, reason: "cap" });
      return null;
    }
  }
  const subscriptionIds = [...new Set(kept.map((row) => row.subscriptionId).filter((id) => id !== null))];
  const subscriptions = new Map<string, SubscriptionRecord>();
  for (const subscription of await Promise.all(
    subscriptionIds.map((id) => stores.subscriptions.getSubscription(id)),
  )) {
    if (subscription) {
      subscriptions.set(subscription.id, subscription);
    }
  }
  const sections = sectionsOf(kept, events, subscriptions);
  const messageId = ctx.ids.next("message");
  const startsTurn = !ctx.drivenFromOutside(session.provider);
  const turnId = startsTurn ? ctx.ids.next("turn") : null;
  // Issued together, in this order: one connection runs them in turn, without a round trip each.
  const digested = new Set(
    kept
      .filter((row) => row.reason === "digest" && row.subscriptionId !== null)
      .map((row) => row.subscriptionId as string),
  );
  await Promise.all([
    stores.sessions.appendMessage({
      id: messageId,
      sessionId: watcher,
      turnId,
      role: "relay",
      text: eventMessage(sections),
      createdAt: now,
    }),
    // GAP-15: a watcher mid-turn gets it as its next turn, once the current one ends.
    turnId === null
      ? undefined
      : stores.sessions.enqueueTurn({
          id: turnId,
          sessionId: watcher,
          promptMessageId: messageId,
          origin: { kind: "event" },
          queuedAt: now,
        }),
    stores.deliveries.markSent({ ids: kept.map((row) => row.id), messageId, at: now }),
    stores.deliveries.recordWakeup({
      messageId,
      watcher,
      at: now,
      kind: urgent ? "urgent" : capDue ? "cap" : "batch",
    }),
    ...[...digested].map((id) => stores.subscriptions.setTiming(id, { lastDigestAt: now })),
  ]);
  return { watcher, messageId, startsTurn };
}
