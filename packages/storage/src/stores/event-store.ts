import type { EventStore, NewOutboxEvent, OutboxRecord } from "@oar/engine";
import { desc, eq, lt, max, sql } from "drizzle-orm";
import type { Database } from "../database";
import { events, outboxHead } from "../tables";
import { inList, instantParam, rawRows, selectAll, toDate, toMs } from "./rows";

/** The channel every append notifies at commit; other relay processes LISTEN on it (DESIGN §9). */
export const EVENTS_CHANNEL = "oar_events";

type EventRow = typeof events.$inferSelect;

function toOutboxRecord(row: EventRow): OutboxRecord {
  return {
    seq: row.seq,
    id: row.id,
    kind: row.kind,
    sessionId: row.sessionId,
    subscriptionId: row.subscriptionId,
    event: row.payload,
    at: toMs(row.at),
  };
}

export function createEventStore(db: Database): EventStore {
  const append = async (input: NewOutboxEvent, headChecked = false): Promise<OutboxRecord | null> => {
    const record: Omit<OutboxRecord, "seq"> = {
      id: input.id,
      kind: input.event.kind,
      sessionId: input.sessionId,
      subscriptionId: input.subscriptionId ?? null,
      event: input.event,
      at: input.at,
    };
    // One statement: an id already stored selects no head row, so it locks nothing and takes
    // no seq. Otherwise the head row is locked until the caller's transaction ends, so the next
    // appender waits and then reads this one's seq: seqs commit in order, and a reader never
    // sees seq N+1 before N. ON CONFLICT catches an id committed while this one waited; the head
    // moves only when the row went in. pg_notify is delivered at commit, to other processes.
    const appended = await rawRows<{ seq: number | string }>(
      db,
      sql`with head as (
          select ${outboxHead.seq} + 1 as seq from ${outboxHead}
          where ${outboxHead.id} = 1
            and not exists (select 1 from ${events} where ${events.id} = ${record.id}::text)
          for update
        ), inserted as (
          insert into ${events} (seq, id, kind, session_id, subscription_id, payload, at)
          select head.seq, ${record.id}::text, ${record.kind}::text, ${record.sessionId}::text,
            ${record.subscriptionId}::text, ${JSON.stringify(record.event)}::jsonb, ${instantParam(record.at)}
          from head
          on conflict (id) do nothing
          returning seq
        ), moved as (
          update ${outboxHead} set seq = inserted.seq from inserted where ${outboxHead.id} = 1
          returning pg_notify(${EVENTS_CHANNEL}::text, '')
        )
        select inserted.seq::float8 as seq from inserted, moved`,
    );
    const [row] = appended;
    if (row !== undefined) {
      return { seq: Number(row.seq), ...record };
    }
    const stored = await db.select({ id: events.id }).from(events).where(eq(events.id, record.id));
    if (stored.length > 0) {
      return null;
    }
    if (headChecked) {
      throw new Error(`Appending event ${record.id} found no outbox head row.`);
    }
    // No head row (a database emptied by hand): it restarts from the highest seq stored.
    await db.execute(
      sql`insert into ${outboxHead} (id, seq) select 1, coalesce(max(${events.seq}), 0) from ${events} on conflict (id) do nothing`,
    );
    return append(input, true);
  };

  return {
    appendEvent: (input) => append(input),

    async listEvents({ after, limit }) {
      if (limit <= 0) {
        return [];
      }
      const rows = await selectAll(
        db,
        events,
        sql`where ${events.seq} > ${after} order by ${events.seq} limit ${limit}`,
      );
      return rows.map(toOutboxRecord);
    },

    async getEvents(ids) {
      if (ids.length === 0) {
        return [];
      }
      const rows = await selectAll(db, events, sql`where ${inList(events.id, ids)} order by ${events.seq}`);
      return rows.map(toOutboxRecord);
    },

    async lastEventSeq() {
      const [last] = await db.select({ seq: events.seq }).from(events).orderBy(desc(events.seq)).limit(1);
      return last?.seq ?? 0;
    },

    async lastSeqBefore(at) {
      const [last] = await db
        .select({ seq: max(events.seq) })
        .from(events)
        .where(lt(events.at, toDate(at)));
      return last?.seq ?? 0;
    },

    async hasEventSeq(seq) {
      const [row] = await db.select({ seq: events.seq }).from(events).where(eq(events.seq, seq)).limit(1);
      return row !== undefined;
    },
  };
}
