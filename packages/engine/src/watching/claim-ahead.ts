import { type DeliveryRecord, type NewDelivery, withDelivery } from "@oar/scheduler";
import type { OutboxEvent } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
import type { OutboxRecord } from "../ports/event-store";
import type { SessionRecord } from "../ports/session-store";
import { readWatchers, type WatcherReads } from "./sending";

type Claim = { readonly watchers: string[]; readonly due: DeliveryRecord[] };
type Pair = { readonly watcher: string; readonly eventId: string };

/**
 * Routing's claim of the watchers an urgent event wakes, taken in the same flight as the
 * subscriptions read, before routing knows who they are: the watchers the session's last event
 * reached are locked, their pending rows (every window they hold, and what is due) read, with
 * their sessions, the batch's pairs already stored and the events of those rows. Only reads and
 * locks: what routing then finds decides which rows go. A watcher the guess locked for nothing
 * stays locked until the commit, as one a claim skips.
 */
export interface EarlyClaim {
  readonly wanted: ReadonlySet<string>;
  readonly claim: Promise<Claim>;
  readonly pairs: Promise<Pair[]>;
  readonly sessions: Promise<SessionRecord[]>;
  /** The events of the claimed rows that are not the batch's own. */
  readonly events: Promise<ReadonlyMap<string, OutboxEvent>>;
}

/** Takes the claim ahead for `guess` (sorted, deduplicated here); `before` is the batch's first seq. */
export function claimEarly(
  stores: EngineStores,
  input: {
    readonly guess: readonly string[];
    readonly now: number;
    readonly before: number;
    readonly batch: readonly OutboxRecord[];
  },
): EarlyClaim {
  const wanted = [...new Set(input.guess)].sort();
  const claim = stores.deliveries.claimAmong({
    now: input.now,
    among: wanted,
    limit: wanted.length,
    closing: { watchers: wanted, before: input.before },
  });
  const pairs = stores.deliveries.storedPairs({ watchers: wanted, eventIds: input.batch.map((r) => r.id) });
  const sessions = stores.sessions.getSessions(wanted);
  const inBatch = new Set(input.batch.map((record) => record.id));
  // Issued as soon as the claim answers: it runs while routing works out who receives what.
  const events = claim.then(async ({ due }) => {
    const ids = [...new Set(due.map((row) => row.eventId))].filter((id) => !inBatch.has(id));
    const records = ids.length > 0 ? await stores.events.getEvents(ids) : [];
    return new Map(records.map((record) => [record.id, record.event] as const));
  });
  // They may never be awaited (routing made no one due, or failed): none must go unhandled.
  for (const read of [claim, pairs, sessions, events]) {
    read.catch(() => undefined);
  }
  return { wanted: new Set(wanted), claim, pairs, sessions, events };
}

/** What routing made due at once, as the claim needs it. */
export interface DueNow {
  readonly now: number;
  /** The watchers to claim, in order. */
  readonly among: readonly string[];
  /** Those an urgent event of the batch flushed: their windows close by being sent. */
  readonly flushed: ReadonlySet<string>;
  readonly before: number;
  /** The batch's fresh rows (not stored): their pairs are checked. */
  readonly fresh: readonly NewDelivery[];
  /** The batch's rows stored pending and due now: the early read came before they were written. */
  readonly storedDue: readonly NewDelivery[];
}

/** The claim of `among` with its reads: from the early claim for the watchers it took, read now for the others. */
export function claimDue(
  stores: EngineStores,
  early: EarlyClaim | null,
  due: DueNow,
): {
  readonly claim: Promise<Claim>;
  readonly pairs: Promise<Pair[]>;
  readonly reads: WatcherReads;
  readonly events: Promise<ReadonlyMap<string, OutboxEvent>>;
} {
  const { now, among, flushed, before } = due;
  const taken = (watcher: string) => early?.wanted.has(watcher) === true;
  const rest = among.filter((watcher) => !taken(watcher));
  const restClaim: Promise<Claim> =
    rest.length > 0
      ? stores.deliveries.claimAmong({
          now,
          among: rest,
          limit: rest.length,
          closing: { watchers: rest.filter((watcher) => flushed.has(watcher)), before },
        })
      : Promise.resolve({ watchers: [], due: [] });
  // A (watcher, event) routed before (a cursor set back by hand) is never sent again.
  const freshRest = due.fresh.filter((row) => !taken(row.watcher));
  const restPairs = stores.deliveries.storedPairs({
    watchers: [...new Set(freshRest.map((row) => row.watcher))],
    eventIds: [...new Set(freshRest.map((row) => row.eventId))],
  });
  // The watchers an urgent event flushed are woken by it, never held by the cap.
  const capped = among.filter((watcher) => !flushed.has(watcher));
  const late = readWatchers(stores, rest, now, capped);
  const reads: WatcherReads =
    early === null
      ? late
      : {
          ...late,
          sessions: Promise.all([early.sessions, late.sessions]).then(([a, b]) => [...a, ...b]),
        };
  const amongTaken = new Set(among.filter(taken));
  const claim = Promise.all([early?.claim, restClaim]).then(([ahead, later]): Claim => {
    const locked = (ahead?.watchers ?? []).filter((watcher) => amongTaken.has(watcher));
    const mine = new Set(locked);
    const goes = (row: DeliveryRecord) =>
      mine.has(row.watcher) &&
      (row.dueAt <= now || (flushed.has(row.watcher) && row.reason === "window" && row.eventSeq < before));
    // The batch's stored rows come after every earlier row of their watcher, as a read would give them.
    const storedNow = due.storedDue
      .filter((row) => mine.has(row.watcher))
      .map((row) => withDelivery(row, { status: "pending", messageId: null }));
    return {
      watchers: [...locked, ...later.watchers],
      due: [...(ahead?.due ?? []).filter(goes), ...storedNow, ...later.due],
    };
  });
  const pairs = Promise.all([early?.pairs ?? [], restPairs]).then(([a, b]) => [...a, ...b]);
  return { claim, pairs, reads, events: early?.events ?? Promise.resolve(new Map()) };
}
