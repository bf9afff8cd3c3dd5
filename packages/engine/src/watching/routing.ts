import { groupBy, type IdGenerator } from "@oar/core";
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
  withDelivery,
} from "@oar/scheduler";
import type { EngineStores } from "../ports/engine-stores";
import type { OutboxRecord } from "../ports/event-store";
import { scheduleStallCheck } from "./ticks";
import type { WindowedWatchers } from "./windowed-watchers";

/** Outbox rows no subscription receives: they are for the owner's stream and later consumers. */
const NOT_ROUTED = new Set([
  "turn_started",
  "session_archived",
  "session_deleted",
  "card_raised",
  "card_answered",
]);
/** Ends after which a watched session may have become idle (all_idle, GAP-13). */
const IDLE_AFTER = new Set(["turn_end", "task_finished", "task_failed", "subagent_finished"]);

/** What a routed batch made due at once: its watchers, and those whose open windows it flushed (sorted). */
export interface DueAtOnce {
  readonly dueWatchers: readonly string[];
  readonly flushed: readonly string[];
  /** The batch's first seq: the flushed windows hold the deliveries of events before it. */
  readonly before: number;
  /**
   * The batch's deliveries to the flushed watchers that are due now and need no echo check, not
   * stored yet: whoever sends them stores them sent, and gives back those it did not send.
   */
  readonly fresh: readonly NewDelivery[];
  /** The batch's rows stored pending that are due now (an echo in doubt): written before the claim is sent. */
  readonly storedDue: readonly NewDelivery[];
}

/** What the step alongside routing leaves to it: windows it did not close, fresh deliveries it did not store. */
export interface LeftOver {
  readonly open: readonly string[];
  readonly unsent: readonly NewDelivery[];
}

export interface RoutingContext {
  readonly stores: EngineStores;
  readonly ids: IdGenerator;
  readonly now: number;
  /** Whom earlier events of each session reached: their open windows are read with the subscriptions. */
  readonly windowed?: WindowedWatchers;
}

/** What the whole batch read at once: the subscriptions its rows may concern. */
interface BatchReads {
  /** Active subscriptions watching one of the batch's sessions (lists naming it, every `all`). */
  readonly watching: readonly SubscriptionRecord[];
  /** The subscriptions the subscription-wide rows name (all_idle, heartbeats, a mirror's events). */
  readonly named: ReadonlyMap<string, SubscriptionRecord>;
}

/** The subscriptions an outbox row may concern: its own subscription's, or those watching its session. */
function candidates(
  reads: BatchReads,
  record: OutboxRecord,
  ended: ReadonlySet<string>,
): SubscriptionRecord[] {
  const found =
    record.subscriptionId !== null
      ? [reads.named.get(record.subscriptionId)].filter((s): s is SubscriptionRecord => s !== undefined)
      : record.sessionId === null
        ? []
        : reads.watching.filter((s) => s.scope === "all" || s.sessions.includes(record.sessionId as string));
  // A `once` subscription that took an earlier row of the batch has ended (R-SUB-09).
  return found.filter((subscription) => !ended.has(subscription.id));
}

/**
 * The grouping windows as the batch moves them (R-DLV-04): where each watcher's open window ends,
 * from the store and then from the rows the batch adds, and the watchers an urgent event of the
 * batch flushed, whose stored window rows become due at once.
 */
class Windows {
  private readonly rows: NewDelivery[] = [];
  readonly flushed = new Set<string>();

  constructor(private readonly openEnds: Map<string, number>) {}

  /** An urgent event for `watcher`: its open window closes; what it held goes out with the event. */
  flush(watcher: string, now: number): void {
    this.flushed.add(watcher);
    this.openEnds.delete(watcher);
    for (const [i, row] of this.rows.entries()) {
      if (row.watcher === watcher && row.reason === "window" && row.dueAt > now) {
        this.rows[i] = withDelivery(row, { dueAt: now });
      }
    }
  }

  openEnd(watcher: string): number | null {
    return this.openEnds.get(watcher) ?? null;
  }

  add(row: NewDelivery): void {
    this.rows.push(row);
    if (row.reason === "window") {
      this.openEnds.set(row.watcher, row.dueAt);
    }
  }

  added(): readonly NewDelivery[] {
    return this.rows;
  }
}

interface FirstRelease {
  readonly watcher: string;
  readonly held: readonly SubscriptionRecord[];
  readonly subscription: SubscriptionRecord;
  readonly release: ReturnType<typeof releaseOf>;
}

/** R-FEW-21: for each watcher, the subscription that lets the event go first. */
function firstReleases(
  record: OutboxRecord,
  receiving: readonly SubscriptionRecord[],
  now: number,
): FirstRelease[] {
  // §28: a paired relay's conversation gets no message from here; that relay fetches the events.
  const byWatcher = groupBy(
    receiving.filter((s) => s.watcherRelay === null),
    (subscription) => subscription.watcher,
  );
  return [...byWatcher].flatMap(([watcher, held]) => {
    const first = firstRelease(
      held.map((subscription) => ({ subscription, release: releaseOf(subscription, record.kind, now) })),
    );
    return first === undefined ? [] : [{ watcher, held, ...first }];
  });
}

/**
 * The conversations a row reaches with no subscription: a non-blocking question's answer goes to
 * the asking conversation and to the session concerned (R-QANS-02, R-QCHK-04), urgent (R-QANS-03).
 * A watcher a subscription reaches already is not reached twice.
 */
function directWatchers(record: OutboxRecord, firsts: readonly FirstRelease[]): string[] {
  const event = record.event;
  if (event.kind !== "question_answered" || event.questionKind !== "ask") {
    return [];
  }
  const reached = new Set(firsts.map((first) => first.watcher));
  // A session of a paired relay (the event names its relay) is reached there, not here.
  const concerned = event.relay === undefined ? [event.session] : [];
  const askers = event.asked_by === undefined ? [] : [event.asked_by];
  return [...new Set([...askers, ...concerned])].filter((watcher) => !reached.has(watcher));
}

/** One row's deliveries, added to the batch's windows in the row's order. */
function deliver(
  ctx: RoutingContext,
  record: OutboxRecord,
  firsts: readonly FirstRelease[],
  windows: Windows,
) {
  for (const first of firsts.filter((f) => f.release.reason === "urgent")) {
    windows.flush(first.watcher, ctx.now);
  }
  for (const watcher of directWatchers(record, firsts)) {
    windows.flush(watcher, ctx.now);
    windows.add({
      id: ctx.ids.next("delivery"),
      watcher,
      subscriptionId: null,
      eventId: record.id,
      eventSeq: record.seq,
      reason: "urgent",
      dueAt: ctx.now,
      echoTurnId: null,
      createdAt: ctx.now,
    });
  }
  const event = record.event;
  for (const { watcher, subscription, release } of firsts) {
    const timing = deliveryTiming(release, ctx.now, windows.openEnd(watcher));
    // R-ECHO-04: a turn_end that ends a once subscription wakes the watcher all the same.
    const echo =
      event.kind === "turn_end" && event.prompted_by === watcher && !subscription.once
        ? (event.turn_id ?? null)
        : null;
    windows.add({
      id: ctx.ids.next("delivery"),
      watcher,
      subscriptionId: subscription.id,
      eventId: record.id,
      eventSeq: record.seq,
      reason: timing.reason,
      dueAt: timing.dueAt,
      echoTurnId: echo,
      createdAt: ctx.now,
    });
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
  // Background tasks keep a session busy too (R-LSES-02 background_only).
  const [turns, tasks] = await Promise.all([
    ctx.stores.sessions.listActiveTurns(),
    ctx.stores.tasks.listRunningTasks(),
  ]);
  const active = new Set([...turns, ...tasks].map((work) => work.sessionId));
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
 * Where the open windows of `watchers` end: from the read made with the subscriptions on a guess,
 * and a read of those the guess missed.
 */
async function windowEnds(
  ctx: RoutingContext,
  watchers: ReadonlySet<string>,
  guessed: readonly string[],
  guessedEnds: ReadonlyMap<string, number>,
): Promise<Map<string, number>> {
  const read = new Set(guessed);
  const missed = [...watchers].filter((watcher) => !read.has(watcher));
  const ends = missed.length > 0 ? await ctx.stores.deliveries.openWindowEnds(missed) : new Map();
  for (const watcher of watchers) {
    const end = guessedEnds.get(watcher);
    if (end !== undefined) {
      ends.set(watcher, end);
    }
  }
  return ends;
}

/** The rows of a batch that reach subscriptions, with those each receives. */
function receivingOf(reads: BatchReads, record: OutboxRecord, ended: ReadonlySet<string>) {
  const around = candidates(reads, record, ended);
  const line = eventLine(record.event);
  const receiving = around.filter((subscription) =>
    receives(subscription, {
      event: record.event,
      sessionId: record.sessionId,
      subscriptionId: record.subscriptionId,
      line,
    }),
  );
  return { around, receiving };
}

/**
 * Routes a batch of outbox rows, in their order, in a fixed number of statements however many
 * rows and watchers: a delivery per watcher that receives each (the first release of its
 * subscriptions wins, R-FEW-21), the windows as they open and urgent events flush them, the
 * `once` subscriptions that received one ended (R-SUB-09; the event still respects their options,
 * R-FEW-20), the all_idle a row may cause, and the stall checks a turn's start moves (GAP-13).
 * `alongside` gets the watchers the batch made due at once, and its statements are issued behind
 * the batch's writes without waiting for them; it may send to the watchers whose windows the
 * batch flushed (their rows of events before `before`) and returns those whose windows it left
 * open, which routing then closes.
 */
export async function routeEvents(
  ctx: RoutingContext,
  records: readonly OutboxRecord[],
  alongside?: (batch: DueAtOnce) => Promise<LeftOver>,
): Promise<void> {
  const firstSeq = records[0]?.seq ?? 0;
  const { stores } = ctx;
  const relevant = records.filter((record) => record.kind === "turn_started" || !NOT_ROUTED.has(record.kind));
  const sessionIds = [
    ...new Set(
      relevant
        .filter((record) => record.subscriptionId === null && record.sessionId !== null)
        .map((record) => record.sessionId as string),
    ),
  ];
  const namedIds = [...new Set(relevant.map((record) => record.subscriptionId).filter((id) => id !== null))];
  // The windows of the watchers the batch's sessions had before are read in the same flight.
  const guessed = ctx.windowed?.of(sessionIds) ?? [];
  const [watching, named, guessedEnds] = await Promise.all([
    stores.subscriptions.listSubscriptionsWatching(sessionIds),
    stores.subscriptions.getSubscriptions(namedIds),
    guessed.length > 0 ? stores.deliveries.openWindowEnds(guessed) : new Map<string, number>(),
  ]);
  const reads: BatchReads = { watching, named: new Map(named.map((s) => [s.id, s])) };

  const ended = new Set<string>();
  const stallChecks: { readonly around: SubscriptionRecord[]; readonly startedAt: number }[] = [];
  const routed: {
    readonly record: OutboxRecord;
    readonly firsts: FirstRelease[];
    readonly around: SubscriptionRecord[];
  }[] = [];
  for (const record of relevant) {
    if (record.kind === "task_started" && record.sessionId !== null) {
      // A command can go quiet: subscriptions watching for stalls check it in time.
      const session = record.sessionId;
      stallChecks.push({
        around: candidates(reads, record, ended).filter((s) => watches(s, session)),
        startedAt: record.at,
      });
    }
    if (record.kind === "turn_started") {
      const session = record.sessionId;
      if (session !== null) {
        const around = candidates(reads, record, ended).filter((s) => watches(s, session));
        stallChecks.push({ around, startedAt: record.at });
        // A first guess of whom the turn's end reaches: every watcher of the session here.
        if (ctx.windowed?.knows(session) === false) {
          ctx.windowed.learn(
            session,
            around.filter((s) => s.watcherRelay === null).map((s) => s.watcher),
          );
        }
      }
      continue;
    }
    const { around, receiving } = receivingOf(reads, record, ended);
    const firsts = firstReleases(record, receiving, ctx.now);
    for (const first of firsts) {
      for (const subscription of first.held.filter((s) => s.once)) {
        ended.add(subscription.id);
      }
    }
    routed.push({ record, firsts, around });
  }

  const windowWatchers = new Set(
    routed.flatMap(({ firsts }) => firsts.filter((f) => f.release.reason === "window").map((f) => f.watcher)),
  );
  // The guess learns whom this batch's sessions reach.
  for (const { record, firsts } of routed) {
    if (record.sessionId !== null && record.subscriptionId === null) {
      ctx.windowed?.learn(
        record.sessionId,
        firsts.map((f) => f.watcher),
      );
    }
  }
  const windows = new Windows(await windowEnds(ctx, windowWatchers, guessed, guessedEnds));
  for (const { record, firsts } of routed) {
    deliver(ctx, record, firsts, windows);
  }
  const flushed = [...windows.flushed].sort();
  // With a sender alongside, what it can send at once is left to it, to be stored sent.
  const isFresh = (row: NewDelivery) =>
    row.dueAt <= ctx.now && row.echoTurnId === null && windows.flushed.has(row.watcher);
  const fresh = alongside === undefined ? [] : windows.added().filter(isFresh);
  const handed = new Set(fresh);
  const stored = windows.added().filter((row) => !handed.has(row));
  // Issued together: one connection runs them in this order, without a round trip each. Without
  // a sender alongside, the flush reaches the stored window rows (all older than the batch) before
  // the batch's own rows go in.
  const written = Promise.all([
    alongside === undefined ? stores.deliveries.closeWindows({ watchers: flushed, at: ctx.now }) : undefined,
    stored.length > 0 ? stores.deliveries.addDeliveries(stored) : undefined,
    ended.size > 0
      ? stores.subscriptions.endSubscriptions({ ids: [...ended], reason: "once", at: ctx.now })
      : undefined,
  ]);
  // Awaited below; until then a throw of the steps between must not leave its failure unheard.
  written.catch(() => undefined);
  for (const { record, around } of routed) {
    await noticeAllIdle(ctx, record, around);
  }
  for (const { around, startedAt } of stallChecks) {
    await scheduleStallCheck(stores, around, startedAt);
  }
  if (alongside === undefined) {
    await written;
    return;
  }
  const dueWatchers = [
    ...new Set([
      ...flushed,
      ...windows
        .added()
        .filter((row) => row.dueAt <= ctx.now)
        .map((row) => row.watcher),
    ]),
  ].sort();
  const storedDue = stored.filter((row) => row.dueAt <= ctx.now);
  const [, left] = await Promise.all([
    written,
    alongside({ dueWatchers, flushed, before: firstSeq, fresh, storedDue }),
  ]);
  // The batch's rows are in: only the windows older than the batch close.
  await Promise.all([
    stores.deliveries.closeWindows({ watchers: left.open, at: ctx.now, before: firstSeq }),
    stores.deliveries.addDeliveries(left.unsent),
  ]);
}
