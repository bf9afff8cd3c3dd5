import type { DeliveryRecord, DeliveryStore, WakeupRecord } from "@oar/scheduler";
import { and, asc, count, eq, inArray, lt, lte, min, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../database";
import { collectedReplies, deliveries, deliveryWatchers, routingCursor, wakeups } from "../tables";
import { DELIVERY_REASONS } from "../tables/vocabulary";
import {
  epochMs,
  inList,
  instantParam,
  isoInstant,
  rawRows,
  recordset,
  selectAll,
  setEach,
  textArray,
  toDate,
  toMs,
} from "./rows";

type DeliveryRow = typeof deliveries.$inferSelect;

function toDeliveryRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    watcher: row.watcher,
    subscriptionId: row.subscriptionId,
    eventId: row.eventId,
    eventSeq: row.eventSeq,
    reason: row.reason,
    dueAt: toMs(row.dueAt),
    echoTurnId: row.echoTurnId,
    status: row.status,
    messageId: row.messageId,
    createdAt: toMs(row.createdAt),
  };
}

function toWakeupRecord(row: typeof wakeups.$inferSelect): WakeupRecord {
  return { messageId: row.messageId, watcher: row.watcher, at: toMs(row.at), kind: row.kind };
}

const PENDING = eq(deliveries.status, "pending");
/** The reasons that hold a delivery for its subscription: a digest, quiet hours, the hourly cap. */
const HELD_REASONS = DELIVERY_REASONS.filter((reason) => reason !== "window" && reason !== "urgent");
/** Watcher ids compared byte by byte, whatever the database's collation: the order the ports promise. */
const byWatcher = (column: typeof deliveries.watcher | typeof deliveryWatchers.watcher) =>
  sql`${column} collate "C"`;

export function createDeliveryStore(db: Database): DeliveryStore {
  /** The `delivery_watchers` rows senders lock, for watchers that have none, in the order given. */
  const insertLockRows = (watchers: readonly string[]) =>
    db.execute(sql`
      insert into ${deliveryWatchers} (watcher)
      select watcher from unnest(${textArray(watchers)}::text[]) with ordinality as w(watcher, n)
      order by n
      on conflict do nothing`);
  const pendingOf = (ids: readonly string[]) => and(inList(deliveries.id, ids), PENDING);
  /** The deliveries `where` picks, each watcher's in event order, the watchers in the ports' order. */
  const byWatcherAndEvent = (where: SQL | undefined) =>
    selectAll(
      db,
      deliveries,
      sql`where ${where} order by ${byWatcher(deliveries.watcher)}, ${deliveries.eventSeq}`,
    );

  return {
    async claimCursor() {
      // SKIP LOCKED: a cursor another process routes with is not waited for.
      const [locked] = await rawRows<{ seq: string | number }>(
        db,
        sql`select seq from ${routingCursor} where id = 1 for update skip locked`,
      );
      if (locked) {
        return Number(locked.seq);
      }
      // No row to lock: either another process holds it (an insert finds it and gives nothing),
      // or it is missing (a database emptied by hand) and this insert makes it, held until commit.
      const [created] = await db
        .insert(routingCursor)
        .values({ id: 1, seq: 0 })
        .onConflictDoNothing()
        .returning({ seq: routingCursor.seq });
      return created?.seq ?? null;
    },

    async setCursor(seq) {
      await db.execute(sql`
        insert into ${routingCursor} (id, seq) values (1, ${seq})
        on conflict (id) do update set seq = excluded.seq`);
    },

    async addDeliveries(rows) {
      if (rows.length === 0) {
        return;
      }
      // Each watcher gets its row first, the lock senders take; sorted, so that two routers adding
      // the same new watchers take their index entries in the same order and cannot deadlock.
      const watchers = [...new Set(rows.map((row) => row.watcher))].sort();
      // Issued together, in this order, on the caller's connection (`execute` sends the builder now).
      const watcherRows = insertLockRows(watchers);
      const deliveryRows = db.execute(sql`
        insert into ${deliveries}
          (id, watcher, subscription_id, event_id, event_seq, reason, due_at, echo_turn_id, status, message_id,
           created_at, settled_at)
        select id, watcher, subscription_id, event_id, event_seq, reason, due_at, echo_turn_id, status, message_id,
          created_at, case when status = 'pending' then null else created_at end
        from ${recordset(
          "d",
          "id text, watcher text, subscription_id text, event_id text, event_seq bigint, reason text, due_at timestamptz, echo_turn_id text, status text, message_id text, created_at timestamptz",
          rows.map((row) => ({
            id: row.id,
            watcher: row.watcher,
            subscription_id: row.subscriptionId,
            event_id: row.eventId,
            event_seq: row.eventSeq,
            reason: row.reason,
            due_at: isoInstant(row.dueAt),
            echo_turn_id: row.echoTurnId,
            status: row.status ?? "pending",
            message_id: row.messageId ?? null,
            created_at: isoInstant(row.createdAt),
          })),
        )}
        on conflict do nothing`);
      await Promise.all([watcherRows, deliveryRows]);
    },

    async storedPairs({ watchers, eventIds }) {
      if (watchers.length === 0 || eventIds.length === 0) {
        return [];
      }
      return rawRows<{ watcher: string; eventId: string }>(
        db,
        sql`select watcher, event_id as "eventId" from ${deliveries}
            where ${inList(deliveries.watcher, watchers)} and ${inList(deliveries.eventId, eventIds)}`,
      );
    },

    async openWindowEnds(watchers) {
      if (watchers.length === 0) {
        return new Map();
      }
      const rows = await rawRows<{ watcher: string; end: string | number }>(
        db,
        sql`select watcher, ${epochMs(sql`max(due_at)`)} as "end" from ${deliveries}
            where ${inList(deliveries.watcher, watchers)} and status = 'pending' and reason = 'window'
            group by watcher`,
      );
      return new Map(rows.map((row) => [row.watcher, Number(row.end)]));
    },

    async closeWindows({ watchers, at, before }) {
      if (watchers.length === 0) {
        return;
      }
      // SKIP LOCKED: a window a sender holds (one made ready ahead of its end) goes out with it;
      // waiting for that sender would hold up the urgent event that closes it.
      const open = db
        .select({ id: deliveries.id })
        .from(deliveries)
        .where(
          and(
            inList(deliveries.watcher, watchers),
            PENDING,
            eq(deliveries.reason, "window"),
            before === undefined ? undefined : lt(deliveries.eventSeq, before),
          ),
        )
        .for("update", { skipLocked: true });
      await db
        .update(deliveries)
        .set({ dueAt: sql`least(${deliveries.dueAt}, ${instantParam(at)})` })
        .where(inArray(deliveries.id, open));
    },

    async claimAmong({ now, among, limit, closing }) {
      const wanted = [...new Set(among)].sort();
      if (limit <= 0 || wanted.length === 0) {
        return { watchers: [], due: [] };
      }
      // A watcher routing meets for the first time gets its lock row here, so that what the batch
      // sends it can be claimed in the same flight; sorted, as in addDeliveries. Sent now, first.
      const lockRows = insertLockRows(wanted).then(() => undefined);
      // Sent at once too: the read is a later statement, so its snapshot still follows the locks
      // (as in claimDueDeliveries), and only the watchers locked keep their rows.
      const locking = rawRows<{ watcher: string }>(
        db,
        sql`select watcher from ${deliveryWatchers} where ${inList(deliveryWatchers.watcher, wanted)}
            order by ${byWatcher(deliveryWatchers.watcher)} limit ${limit} for update skip locked`,
      );
      const where = and(
        inList(deliveries.watcher, wanted),
        PENDING,
        or(
          lte(deliveries.dueAt, toDate(now)),
          closing === undefined || closing.watchers.length === 0
            ? undefined
            : and(
                eq(deliveries.reason, "window"),
                inList(deliveries.watcher, closing.watchers),
                lt(deliveries.eventSeq, closing.before),
              ),
        ),
      );
      const reading = byWatcherAndEvent(where);
      const [, locked, rows] = await Promise.all([lockRows, locking, reading]);
      const watchers = locked.map((row) => row.watcher);
      const claimed = new Set(watchers);
      return { watchers, due: rows.filter((row) => claimed.has(row.watcher)).map(toDeliveryRecord) };
    },

    async claimDueDeliveries({ now, watchers, after }) {
      if (watchers <= 0) {
        return [];
      }
      const due = and(PENDING, lte(deliveries.dueAt, toDate(now)));
      // The watchers waiting longest first, each locked for the caller's transaction; SKIP LOCKED
      // passes over those another process is sending to.
      const grouped = db
        .select({ watcher: deliveries.watcher, firstDue: min(deliveries.dueAt).as("first_due") })
        .from(deliveries)
        .where(due)
        .groupBy(deliveries.watcher);
      const firstDue = (
        after === undefined ? grouped : grouped.having(sql`min(${deliveries.dueAt}) > ${instantParam(after)}`)
      ).as("due_watchers");
      const claimed = await db
        .select({ watcher: deliveryWatchers.watcher })
        .from(deliveryWatchers)
        .innerJoin(firstDue, eq(firstDue.watcher, deliveryWatchers.watcher))
        .orderBy(asc(firstDue.firstDue), byWatcher(deliveryWatchers.watcher))
        .limit(watchers)
        .for("update", { of: deliveryWatchers, skipLocked: true });
      if (claimed.length === 0) {
        return [];
      }
      // A new statement, so a new snapshot: what a sender that held a watcher until just now
      // marked sent is seen as sent.
      const rows = await byWatcherAndEvent(
        and(
          inList(
            deliveries.watcher,
            claimed.map((row) => row.watcher),
          ),
          due,
        ),
      );
      return rows.map(toDeliveryRecord);
    },

    async listDueOf({ watchers, now }) {
      if (watchers.length === 0) {
        return [];
      }
      const rows = await byWatcherAndEvent(
        and(inList(deliveries.watcher, watchers), PENDING, lte(deliveries.dueAt, toDate(now))),
      );
      return rows.map(toDeliveryRecord);
    },

    async markSent({ messages, at }) {
      const pairs = messages.flatMap(({ messageId, ids }) =>
        ids.map((id) => ({ id, message_id: messageId })),
      );
      if (pairs.length === 0) {
        return;
      }
      // One statement for every watcher of a pass: each delivery takes its own message's id.
      await db.execute(sql`
        update ${deliveries} set status = 'sent', message_id = sent.message_id, settled_at = ${instantParam(at)}
        from ${recordset("sent", "id text, message_id text", pairs)}
        where ${deliveries.id} = sent.id and ${deliveries.status} = 'pending'`);
    },

    async markDropped({ ids, at }) {
      if (ids.length > 0) {
        await db
          .update(deliveries)
          .set({ status: "dropped", settledAt: toDate(at) })
          .where(pendingOf(ids));
      }
    },

    async postpone({ ids, dueAt, reason }) {
      if (ids.length > 0) {
        await db
          .update(deliveries)
          .set({ dueAt: toDate(dueAt), reason })
          .where(pendingOf(ids));
      }
    },

    async nextDeliveryDueAt() {
      const [row] = await db
        .select({ at: min(deliveries.dueAt) })
        .from(deliveries)
        .where(PENDING);
      return row?.at ? toMs(row.at) : null;
    },

    async heldBySubscriptions(subscriptionIds) {
      if (subscriptionIds.length === 0) {
        return [];
      }
      const rows = await db
        .select({
          subscriptionId: deliveries.subscriptionId,
          heldCount: count(),
          nextDeliveryAt: min(deliveries.dueAt),
        })
        .from(deliveries)
        .where(
          and(
            PENDING,
            inArray(deliveries.reason, HELD_REASONS),
            inList(deliveries.subscriptionId, subscriptionIds),
          ),
        )
        .groupBy(deliveries.subscriptionId)
        .orderBy(sql`${deliveries.subscriptionId} collate "C"`);
      return rows.flatMap((row) =>
        row.subscriptionId === null || row.nextDeliveryAt === null
          ? []
          : [
              {
                subscriptionId: row.subscriptionId,
                heldCount: row.heldCount,
                nextDeliveryAt: toMs(row.nextDeliveryAt),
              },
            ],
      );
    },

    async moveWatcher({ from, to, subscriptionIds }) {
      if (from === to || subscriptionIds?.length === 0) {
        return;
      }
      const moving = and(
        eq(deliveries.watcher, from),
        PENDING,
        subscriptionIds === undefined ? undefined : inList(deliveries.subscriptionId, subscriptionIds),
      );
      await db.transaction(async (tx) => {
        // An event `to` already has goes out to it once: `from`'s copy is let go.
        await tx
          .delete(deliveries)
          .where(
            and(
              moving,
              sql`exists (select 1 from ${deliveries} as theirs where theirs.watcher = ${to}::text and theirs.event_id = ${deliveries}.event_id)`,
            ),
          );
        await tx.insert(deliveryWatchers).values({ watcher: to }).onConflictDoNothing();
        await tx.update(deliveries).set({ watcher: to }).where(moving);
      });
    },

    async setWakeupKinds(kinds) {
      await setEach(
        db,
        wakeups,
        wakeups.messageId,
        wakeups.kind,
        kinds.map((k) => ({ key: k.messageId, value: k.kind })),
      );
    },

    async recordWakeups(records) {
      if (records.length === 0) {
        return;
      }
      await db.execute(sql`
        insert into ${wakeups} (message_id, watcher, at, kind)
        select message_id, watcher, at, kind
        from ${recordset(
          "w",
          "message_id text, watcher text, at timestamptz, kind text",
          records.map((wakeup) => ({
            message_id: wakeup.messageId,
            watcher: wakeup.watcher,
            at: isoInstant(wakeup.at),
            kind: wakeup.kind,
          })),
        )}
        on conflict do nothing`);
    },

    async listWakeups({ watchers, since }) {
      if (watchers.length === 0) {
        return [];
      }
      const rows = await selectAll(
        db,
        wakeups,
        sql`where ${inList(wakeups.watcher, watchers)} and ${wakeups.at} >= ${instantParam(since)}
          order by ${wakeups.at}, ${wakeups.messageId} collate "C"`,
      );
      return rows.map(toWakeupRecord);
    },

    async recordCollectedReply({ turnId, sessionId, at }) {
      await db
        .insert(collectedReplies)
        .values({ sessionId, turnId, at: toDate(at) })
        .onConflictDoNothing();
    },

    async collectedReplies({ sessionId, turnIds }) {
      if (turnIds.length === 0) {
        return [];
      }
      const rows = await db
        .select({ turnId: collectedReplies.turnId })
        .from(collectedReplies)
        .where(and(eq(collectedReplies.sessionId, sessionId), inList(collectedReplies.turnId, turnIds)));
      const collected = new Set(rows.map((row) => row.turnId));
      return [...new Set(turnIds)].filter((turnId) => collected.has(turnId));
    },
  };
}
