import type { DeliveryReason, DeliveryStatus, WakeupRecord } from "@oar/scheduler";
import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, smallint, text, unique } from "drizzle-orm/pg-core";
import { instant, oneOf } from "./columns";
import { DELIVERY_REASONS, DELIVERY_STATUSES, WAKEUP_KINDS } from "./vocabulary";

/** One outbox event on its way to one watcher (DESIGN §3): stored once per (watcher, event). */
export const deliveries = pgTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    watcher: text("watcher").notNull(),
    // The subscription that let it go first (R-FEW-21); null for question_answered.
    subscriptionId: text("subscription_id"),
    eventId: text("event_id").notNull(),
    eventSeq: bigint("event_seq", { mode: "number" }).notNull(),
    reason: text("reason").$type<DeliveryReason>().notNull(),
    dueAt: instant("due_at").notNull(),
    // A turn_end of a turn the watcher prompted (R-ECHO-01).
    echoTurnId: text("echo_turn_id"),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    // The message it went out in.
    messageId: text("message_id"),
    createdAt: instant("created_at").notNull(),
    // When it was sent or dropped.
    settledAt: instant("settled_at"),
  },
  (t) => [
    unique("deliveries_watcher_event_key").on(t.watcher, t.eventId),
    index("deliveries_due_idx").on(t.dueAt, t.watcher).where(sql`status = 'pending'`),
    index("deliveries_watcher_idx").on(t.watcher, t.eventSeq).where(sql`status = 'pending'`),
    index("deliveries_subscription_idx").on(t.subscriptionId).where(sql`status = 'pending'`),
    oneOf("deliveries_reason_check", t.reason, DELIVERY_REASONS),
    oneOf("deliveries_status_check", t.status, DELIVERY_STATUSES),
  ],
);

/**
 * One row per watcher that ever had a delivery: the lock a sending process takes (FOR UPDATE SKIP
 * LOCKED) so that one watcher's due deliveries go out from one process at a time, as one message.
 */
export const deliveryWatchers = pgTable("delivery_watchers", {
  watcher: text("watcher").primaryKey(),
});

/** One row: the last outbox seq routed into deliveries; the routing process holds its row lock. */
export const routingCursor = pgTable(
  "routing_cursor",
  {
    id: smallint("id").primaryKey().default(1),
    seq: bigint("seq", { mode: "number" }).notNull(),
  },
  (t) => [check("routing_cursor_one_row", sql`${t.id} = 1`)],
);

/** The messages the relay wrote into a watcher, for the hourly cap (R-DLV-05). */
export const wakeups = pgTable(
  "wakeups",
  {
    messageId: text("message_id").primaryKey(),
    watcher: text("watcher").notNull(),
    at: instant("at").notNull(),
    kind: text("kind").$type<WakeupRecord["kind"]>().notNull(),
  },
  (t) => [
    index("wakeups_watcher_idx").on(t.watcher, t.at),
    oneOf("wakeups_kind_check", t.kind, WAKEUP_KINDS),
  ],
);

/** R-ECHO-01: turns whose finished reply the prompting conversation collected through send or wait. */
export const collectedReplies = pgTable(
  "collected_replies",
  {
    sessionId: text("session_id").notNull(),
    turnId: text("turn_id").notNull(),
    at: instant("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.turnId] })],
);
