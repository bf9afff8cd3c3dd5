import type { OutboxEvent, OutboxEventKind } from "@oar/schema";
import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, smallint, text } from "drizzle-orm/pg-core";
import { instant, oneOf } from "./columns";
import { OUTBOX_EVENT_KINDS } from "./vocabulary";

/**
 * The outbox (DESIGN §3, §9): every lifecycle change's event, written in the change's transaction.
 * `seq` is not a sequence: the store takes it from `outbox_head` inside that transaction, so seqs
 * become visible in order, without gaps (a sequence hands out numbers that commit out of order).
 */
export const events = pgTable(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    // The idempotency key: an event is stored once.
    id: text("id").notNull().unique("events_id_key"),
    kind: text("kind").$type<OutboxEventKind>().notNull(),
    // Null for a subscription-wide event (all_idle, heartbeat).
    sessionId: text("session_id"),
    // Set for the events one subscription produces (all_idle, stalled, heartbeat).
    subscriptionId: text("subscription_id"),
    // The event as consumers receive it.
    payload: jsonb("payload").$type<OutboxEvent>().notNull(),
    at: instant("at").notNull(),
  },
  (t) => [
    oneOf("events_kind_check", t.kind, OUTBOX_EVENT_KINDS),
    // A paired relay's first fetch of a new subscription starts near its creation, not at seq 0.
    index("events_at_idx").on(t.at),
  ],
);

/**
 * One row: the last seq given to an event. Appending updates it in the appender's transaction, so
 * appenders queue on its row lock until the one before commits (or rolls back, giving its seq back).
 */
export const outboxHead = pgTable(
  "outbox_head",
  {
    id: smallint("id").primaryKey().default(1),
    seq: bigint("seq", { mode: "number" }).notNull(),
  },
  (t) => [check("outbox_head_one_row", sql`${t.id} = 1`)],
);
