import { groupBy, type IdGenerator } from "@oar/core";
import {
  capHoldUntil,
  type DeliveryReason,
  type DeliveryRecord,
  eventMessage,
  type MessageSection,
  type NewDelivery,
  type SubscriptionRecord,
  type WakeupRecord,
  withDelivery,
} from "@oar/scheduler";
import type { OutboxEvent } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
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

/**
 * What one pass did for a watcher: the session whose queue must be kicked once committed, and
 * what its message carries, for events that join it before the commit (`amendMessages`).
 */
export interface Sent {
  readonly watcher: string;
  readonly messageId: string;
  readonly startsTurn: boolean;
  readonly rows: readonly DeliveryRecord[];
  readonly kind: WakeupRecord["kind"];
  readonly events: ReadonlyMap<string, OutboxEvent>;
  readonly subscriptions: ReadonlyMap<string, SubscriptionRecord>;
}

/** A message's wake-up: urgent when it carries an urgent event, the cap's own digest, or a batch. */
function wakeupKind(rows: readonly DeliveryRecord[]): WakeupRecord["kind"] {
  if (rows.some((row) => row.reason === "urgent")) {
    return "urgent";
  }
  return rows.some((row) => row.reason === "cap") ? "cap" : "batch";
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
  settling: Settling,
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
  settling.drop(dropped.map((row) => row.id));
  const kept: DeliveryRecord[] = [];
  for (const row of due) {
    if (dropped.includes(row)) {
      continue;
    }
    const at = Date.parse(events.get(row.eventId)?.at ?? "");
    if (row.echoTurnId !== null && at + ECHO_GRACE_MS > ctx.now) {
      await settling.postpone([row.id], at + ECHO_GRACE_MS, row.reason);
      continue;
    }
    kept.push(row);
  }
  return kept;
}

/**
 * How a pass settles its rows: the claimed ones (stored, pending) are marked; the fresh ones
 * routing handed it (not stored yet) are stored once, already settled — sent with their message,
 * dropped, or pending when the pass held them back.
 */
class Settling {
  private readonly dropped: string[] = [];
  private readonly fresh: Map<string, NewDelivery>;

  constructor(
    private readonly stores: EngineStores,
    fresh: readonly NewDelivery[],
  ) {
    this.fresh = new Map(fresh.map((row) => [row.id, row]));
  }

  drop(ids: readonly string[]): void {
    this.dropped.push(...ids);
  }

  async postpone(ids: readonly string[], dueAt: number, reason: DeliveryReason): Promise<void> {
    for (const id of ids) {
      const row = this.fresh.get(id);
      if (row !== undefined) {
        this.fresh.set(id, withDelivery(row, { dueAt, reason }));
      }
    }
    const stored = ids.filter((id) => !this.fresh.has(id));
    if (stored.length > 0) {
      await this.stores.deliveries.postpone({ ids: stored, dueAt, reason });
    }
  }

  /** The writes that settle everything, to be issued with the pass's other writes. */
  writes(marks: Outgoing["marks"], at: number): Promise<void>[] {
    const { deliveries } = this.stores;
    const isStored = (id: string) => !this.fresh.has(id);
    const sentWith = new Map(
      marks.flatMap(({ messageId, ids }) => ids.map((id) => [id, messageId] as const)),
    );
    const dropped = new Set(this.dropped);
    const fresh = [...this.fresh.values()].map((row): NewDelivery => {
      const messageId = sentWith.get(row.id);
      if (messageId !== undefined) {
        return withDelivery(row, { status: "sent", messageId });
      }
      return dropped.has(row.id) ? withDelivery(row, { status: "dropped" }) : row;
    });
    return [
      deliveries.markDropped({ ids: this.dropped.filter(isStored), at }),
      deliveries.markSent({
        messages: marks.map(({ messageId, ids }) => ({ messageId, ids: ids.filter(isStored) })),
        at,
      }),
      deliveries.addDeliveries(fresh),
    ];
  }
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
 * One watcher's share of the pass: drops what its archived session can no longer take, sorts out
 * echoes and holds past the hourly cap. Returns the deliveries that go out now, in one message
 * (`addMessage`, R-DLV-01, R-DLV-04).
 */
async function prepareWatcher(
  ctx: SendingContext,
  watcher: string,
  due: readonly DeliveryRecord[],
  reads: PassReads,
  settling: Settling,
): Promise<DeliveryRecord[]> {
  const session = reads.sessions.get(watcher);
  if (session === undefined || session.archivedAt !== null) {
    // Its subscriptions ended with it (R-SLIFE-02 (b)); what was on its way goes nowhere.
    settling.drop(due.map((row) => row.id));
    return [];
  }
  const kept = await withoutEchoes(ctx, watcher, due, reads.events, settling);
  if (kept.length === 0) {
    return [];
  }
  const urgent = kept.some((row) => row.reason === "urgent");
  const capDue = kept.some((row) => row.reason === "cap");
  if (!urgent && !capDue) {
    const hold = capHoldUntil(reads.wakeups.get(watcher) ?? [], ctx.now);
    if (hold !== null) {
      // R-DLV-05: past the hourly cap, the rest waits for the cap's next digest.
      await settling.postpone(
        kept.map((row) => row.id),
        hold,
        "cap",
      );
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
  const kind = wakeupKind(kept);
  out.marks.push({ messageId, ids: kept.map((row) => row.id) });
  out.wakeups.push({ messageId, watcher, at: ctx.now, kind });
  for (const row of kept) {
    if (row.reason === "digest" && row.subscriptionId !== null) {
      out.digested.add(row.subscriptionId);
    }
  }
  out.sent.push({ watcher, messageId, startsTurn, rows: kept, kind, events, subscriptions });
}

/**
 * Adds to messages a pass wrote, before it commits, the deliveries routed to their watchers since
 * (`late`: their pending rows due now) that the message would have carried had they been there
 * when it was written — window and urgent rows, no echo in doubt — so a window still arrives as one
 * message (R-DLV-04). The others stay pending for the next pass, as they would have. Gives the
 * messages as they now are.
 */
export async function amendMessages(
  ctx: Pick<SendingContext, "stores" | "now">,
  sent: readonly Sent[],
  late: readonly DeliveryRecord[],
): Promise<Sent[]> {
  const joining = groupBy(
    late.filter((row) => (row.reason === "window" || row.reason === "urgent") && row.echoTurnId === null),
    (row) => row.watcher,
  );
  const grown = sent.filter((message) => joining.has(message.watcher));
  if (grown.length === 0) {
    return [...sent];
  }
  const { stores } = ctx;
  const eventIds = [
    ...new Set(grown.flatMap((message) => (joining.get(message.watcher) ?? []).map((row) => row.eventId))),
  ];
  const added = new Map(
    (await stores.events.getEvents(eventIds)).map((record) => [record.id, record.event] as const),
  );
  const amended = new Map(
    grown.map((message) => {
      const rows = [...message.rows, ...(joining.get(message.watcher) ?? [])];
      const events = new Map([...message.events, ...added]);
      return [message.watcher, { ...message, rows, events, kind: wakeupKind(rows) }] as const;
    }),
  );
  const marks = grown.map((message) => ({
    messageId: message.messageId,
    ids: (joining.get(message.watcher) ?? []).map((row) => row.id),
  }));
  const changedKinds = grown.flatMap((message) => {
    const kind = amended.get(message.watcher)?.kind;
    return kind === undefined || kind === message.kind ? [] : [{ messageId: message.messageId, kind }];
  });
  await Promise.all([
    stores.sessions.reviseMessages(
      [...amended.values()].map((message) => ({
        id: message.messageId,
        text: eventMessage(sectionsOf(message.rows, message.events, message.subscriptions)),
      })),
    ),
    stores.deliveries.markSent({ messages: marks, at: ctx.now }),
    stores.deliveries.setWakeupKinds(changedKinds),
  ]);
  return sent.map((message) => amended.get(message.watcher) ?? message);
}

/**
 * The watchers' sessions and the last-hour wake-ups of those whose cap may apply, read ahead of
 * the claim when the watchers are known.
 */
export interface WatcherReads {
  readonly sessions: Promise<SessionRecord[]>;
  readonly wakeups: Promise<WakeupRecord[]>;
  /** The watchers whose wake-ups were read. */
  readonly capped: ReadonlySet<string>;
}

/**
 * Reads the sessions of `watchers` and the wake-ups of `capped` (by default all of them): a
 * watcher an urgent event wakes is never held by the cap (R-DLV-05), so its hour of wake-ups,
 * often the biggest read of a send, need not be read.
 */
export function readWatchers(
  stores: EngineStores,
  watchers: readonly string[],
  now: number,
  capped: readonly string[] = watchers,
): WatcherReads {
  const reads = {
    sessions: stores.sessions.getSessions(watchers),
    wakeups: stores.deliveries.listWakeups({ watchers: capped, since: now - HOUR_MS }),
    capped: new Set(capped),
  };
  // Read ahead, they may never be awaited (the claim failed or got no one): the transaction
  // waits for them and fails with the first error; none must go unhandled meanwhile.
  reads.sessions.catch(() => undefined);
  reads.wakeups.catch(() => undefined);
  return reads;
}

/** The watchers the hourly cap may hold: due rows with neither an urgent event nor the cap's own digest. */
function cappable(byWatcher: ReadonlyMap<string, readonly DeliveryRecord[]>): string[] {
  return [...byWatcher]
    .filter(([, rows]) => !rows.some((row) => row.reason === "urgent" || row.reason === "cap"))
    .map(([watcher]) => watcher);
}

/** Reasons whose message section names its subscription (a digest, quiet hours, the cap). */
const NAMING_REASONS = new Set(["digest", "quiet", "cap"]);

/**
 * Sends the due deliveries of the claimed watchers, one message each, inside the caller's
 * transaction: the messages, their turns and the deliveries marked sent commit together, so a
 * crash before the commit leaves them pending and nothing is sent twice. The reads and writes are
 * set-wise — a fixed number of statements however many watchers — so an event that wakes a
 * hundred watchers reaches them in one short transaction. `ahead` are reads already issued for
 * (at least) these watchers, `known` events the caller holds: neither is read again. `fresh` are
 * deliveries routing made in this transaction and did not store, of watchers the caller claimed:
 * they go out after the claimed rows of their watcher and are stored settled.
 */
export async function sendToWatchers(
  ctx: SendingContext,
  claimed: readonly DeliveryRecord[],
  ahead?: WatcherReads,
  known: ReadonlyMap<string, OutboxEvent> = new Map(),
  fresh: readonly NewDelivery[] = [],
): Promise<Sent[]> {
  const { stores, now } = ctx;
  // A fresh row's event is later than every stored row's of its watcher: appended, the order stays.
  const due = [...claimed, ...fresh.map((row) => withDelivery(row, { status: "pending", messageId: null }))];
  const byWatcher = groupBy(due, (row) => row.watcher);
  const watchers = [...byWatcher.keys()];
  if (watchers.length === 0) {
    return [];
  }
  const capped = cappable(byWatcher);
  const watcherReads = ahead ?? readWatchers(stores, watchers, now, capped);
  // A read ahead left out a watcher the cap may hold (its urgent row was routed before): read it now.
  const unread = capped.filter((watcher) => !watcherReads.capped.has(watcher));
  const subscriptionIds = [
    ...new Set(
      due
        .filter((row) => NAMING_REASONS.has(row.reason))
        .map((row) => row.subscriptionId)
        .filter((id): id is string => id !== null),
    ),
  ];
  const unknown = [...new Set(due.map((row) => row.eventId))].filter((id) => !known.has(id));
  const [sessions, records, wakeups, unreadWakeups, subscriptionRecords] = await Promise.all([
    watcherReads.sessions,
    unknown.length > 0 ? stores.events.getEvents(unknown) : [],
    watcherReads.wakeups,
    unread.length > 0 ? stores.deliveries.listWakeups({ watchers: unread, since: now - HOUR_MS }) : [],
    subscriptionIds.length > 0 ? stores.subscriptions.getSubscriptions(subscriptionIds) : [],
  ]);
  const reads: PassReads = {
    sessions: new Map(sessions.map((session) => [session.id, session])),
    events: new Map([...known, ...records.map((record) => [record.id, record.event] as const)]),
    wakeups: groupBy([...wakeups, ...unreadWakeups], (wakeup) => wakeup.watcher),
  };
  const settling = new Settling(stores, fresh);
  const kept = await Promise.all(
    watchers.map(async (watcher) => ({
      watcher,
      rows: await prepareWatcher(ctx, watcher, byWatcher.get(watcher) ?? [], reads, settling),
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
    ...settling.writes(out.marks, now),
    stores.sessions.appendMessages(out.messages),
    stores.sessions.enqueueTurns(out.turns),
    stores.deliveries.recordWakeups(out.wakeups),
    ...[...out.digested].map((id) => stores.subscriptions.setTiming(id, { lastDigestAt: now })),
  ]);
  return out.sent;
}
