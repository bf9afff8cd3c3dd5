import { groupBy, type IdGenerator } from "@oar/core";
import {
  capHoldUntil,
  type DeliveryRecord,
  eventMessage,
  type MessageSection,
  type SubscriptionRecord,
  type WakeupRecord,
} from "@oar/scheduler";
import type { OutboxEvent } from "@oar/schema";
import type { EngineStores } from "../engine";
import type { NewMessage, NewTurn, SessionRecord } from "../ports/session-store";

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
    const bySubscription = groupBy(
      due.filter((r) => r.reason === reason),
      (row) => row.subscriptionId ?? "",
    );
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

/** What a pass writes for the watchers it sends to, gathered to be written in a few statements. */
interface Outgoing {
  readonly messages: NewMessage[];
  readonly turns: NewTurn[];
  readonly marks: { readonly messageId: string; readonly ids: readonly string[] }[];
  readonly wakeups: WakeupRecord[];
  readonly digested: Set<string>;
  readonly sent: Sent[];
}

/** What the pass read for every watcher at once. */
interface PassReads {
  readonly sessions: ReadonlyMap<string, SessionRecord>;
  readonly events: ReadonlyMap<string, OutboxEvent>;
  readonly wakeups: ReadonlyMap<string, WakeupRecord[]>;
}

/**
 * One watcher's share of the pass: drops what its archived session can no longer take (into
 * `dropped`), sorts out echoes and holds past the hourly cap. Returns the deliveries that go out
 * now, in one message (`addMessage`, R-DLV-01, R-DLV-04).
 */
async function prepareWatcher(
  ctx: SendingContext,
  watcher: string,
  due: readonly DeliveryRecord[],
  reads: PassReads,
  dropped: string[],
): Promise<DeliveryRecord[]> {
  const session = reads.sessions.get(watcher);
  if (session === undefined || session.archivedAt !== null) {
    // Its subscriptions ended with it (R-SLIFE-02 (b)); what was on its way goes nowhere.
    dropped.push(...due.map((row) => row.id));
    return [];
  }
  const kept = await withoutEchoes(ctx, watcher, due, reads.events);
  if (kept.length === 0) {
    return [];
  }
  const urgent = kept.some((row) => row.reason === "urgent");
  const capDue = kept.some((row) => row.reason === "cap");
  if (!urgent && !capDue) {
    const hold = capHoldUntil(reads.wakeups.get(watcher) ?? [], ctx.now);
    if (hold !== null) {
      // R-DLV-05: past the hourly cap, the rest waits for the cap's next digest.
      await ctx.stores.deliveries.postpone({ ids: kept.map((row) => row.id), dueAt: hold, reason: "cap" });
      return [];
    }
  }
  return kept;
}

function addMessage(
  ctx: SendingContext,
  out: Outgoing,
  session: SessionRecord,
  kept: readonly DeliveryRecord[],
  events: ReadonlyMap<string, OutboxEvent>,
  subscriptions: ReadonlyMap<string, SubscriptionRecord>,
): void {
  const watcher = session.id;
  const urgent = kept.some((row) => row.reason === "urgent");
  const capDue = kept.some((row) => row.reason === "cap");
  const messageId = ctx.ids.next("message");
  const startsTurn = !ctx.drivenFromOutside(session.provider);
  const turnId = startsTurn ? ctx.ids.next("turn") : null;
  out.messages.push({
    id: messageId,
    sessionId: watcher,
    turnId,
    role: "relay",
    text: eventMessage(sectionsOf(kept, events, subscriptions)),
    createdAt: ctx.now,
  });
  if (turnId !== null) {
    // GAP-15: a watcher mid-turn gets it as its next turn, once the current one ends.
    out.turns.push({
      id: turnId,
      sessionId: watcher,
      promptMessageId: messageId,
      origin: { kind: "event" },
      queuedAt: ctx.now,
    });
  }
  out.marks.push({ messageId, ids: kept.map((row) => row.id) });
  out.wakeups.push({ messageId, watcher, at: ctx.now, kind: urgent ? "urgent" : capDue ? "cap" : "batch" });
  for (const row of kept) {
    if (row.reason === "digest" && row.subscriptionId !== null) {
      out.digested.add(row.subscriptionId);
    }
  }
  out.sent.push({ watcher, messageId, startsTurn });
}

/** The watchers' sessions and last-hour wake-ups, read ahead of the claim when the watchers are known. */
export interface WatcherReads {
  readonly sessions: Promise<SessionRecord[]>;
  readonly wakeups: Promise<WakeupRecord[]>;
}

export function readWatchers(stores: EngineStores, watchers: readonly string[], now: number): WatcherReads {
  const reads = {
    sessions: stores.sessions.getSessions(watchers),
    wakeups: stores.deliveries.listWakeups({ watchers, since: now - HOUR_MS }),
  };
  // Read ahead, they may never be awaited (the claim failed or got no one): the transaction
  // waits for them and fails with the first error; none must go unhandled meanwhile.
  reads.sessions.catch(() => undefined);
  reads.wakeups.catch(() => undefined);
  return reads;
}

/** Reasons whose message section names its subscription (a digest, quiet hours, the cap). */
const NAMING_REASONS = new Set(["digest", "quiet", "cap"]);

/**
 * Sends the due deliveries of the claimed watchers, one message each, inside the caller's
 * transaction: the messages, their turns and the deliveries marked sent commit together, so a
 * crash before the commit leaves them pending and nothing is sent twice. The reads and writes are
 * set-wise — a fixed number of statements however many watchers — so an event that wakes a
 * hundred watchers reaches them in one short transaction. `ahead` are reads already issued for
 * (at least) these watchers, `known` events the caller holds: neither is read again.
 */
export async function sendToWatchers(
  ctx: SendingContext,
  due: readonly DeliveryRecord[],
  ahead?: WatcherReads,
  known: ReadonlyMap<string, OutboxEvent> = new Map(),
): Promise<Sent[]> {
  const { stores, now } = ctx;
  const byWatcher = groupBy(due, (row) => row.watcher);
  const watchers = [...byWatcher.keys()];
  if (watchers.length === 0) {
    return [];
  }
  const watcherReads = ahead ?? readWatchers(stores, watchers, now);
  const subscriptionIds = [
    ...new Set(
      due
        .filter((row) => NAMING_REASONS.has(row.reason))
        .map((row) => row.subscriptionId)
        .filter((id): id is string => id !== null),
    ),
  ];
  const unknown = [...new Set(due.map((row) => row.eventId))].filter((id) => !known.has(id));
  const [sessions, records, wakeups, subscriptionRecords] = await Promise.all([
    watcherReads.sessions,
    unknown.length > 0 ? stores.events.getEvents(unknown) : [],
    watcherReads.wakeups,
    subscriptionIds.length > 0 ? stores.subscriptions.getSubscriptions(subscriptionIds) : [],
  ]);
  const reads: PassReads = {
    sessions: new Map(sessions.map((session) => [session.id, session])),
    events: new Map([...known, ...records.map((record) => [record.id, record.event] as const)]),
    wakeups: groupBy(wakeups, (wakeup) => wakeup.watcher),
  };
  const dropped: string[] = [];
  const kept = await Promise.all(
    watchers.map(async (watcher) => ({
      watcher,
      rows: await prepareWatcher(ctx, watcher, byWatcher.get(watcher) ?? [], reads, dropped),
    })),
  );
  const subscriptions = new Map(subscriptionRecords.map((s) => [s.id, s]));
  const out: Outgoing = { messages: [], turns: [], marks: [], wakeups: [], digested: new Set(), sent: [] };
  for (const { watcher, rows } of kept) {
    const session = reads.sessions.get(watcher);
    if (session !== undefined && rows.length > 0) {
      addMessage(ctx, out, session, rows, reads.events, subscriptions);
    }
  }
  // Issued together: one connection runs them in turn, without a round trip each.
  await Promise.all([
    stores.deliveries.markDropped({ ids: dropped, at: now }),
    stores.sessions.appendMessages(out.messages),
    stores.sessions.enqueueTurns(out.turns),
    stores.deliveries.markSent({ messages: out.marks, at: now }),
    stores.deliveries.recordWakeups(out.wakeups),
    ...[...out.digested].map((id) => stores.subscriptions.setTiming(id, { lastDigestAt: now })),
  ]);
  return out.sent;
}
