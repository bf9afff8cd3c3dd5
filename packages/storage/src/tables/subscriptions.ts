import type { JsonObject } from "@oar/engine";
import type { SubscriptionEndReason, SubscriptionScope } from "@oar/schema";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { instant, oneOf, sequence } from "./columns";
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  DIGEST_REASONS,
  type DigestReason,
  GROUPED_MESSAGE_STATUSES,
  type GroupedMessageStatus,
  SUBSCRIPTION_END_REASONS,
  SUBSCRIPTION_SCOPES,
} from "./vocabulary";

export interface QuietHours {
  readonly from: string;
  readonly to: string;
  readonly tz: string;
}

export const subscriptions = pgTable(
  "subscriptions",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    // The watching conversation (relay null = this relay, else a paired relay's agent watching here).
    watcherRelay: text("watcher_relay"),
    watcherSession: text("watcher_session").notNull(),
    // The relay whose sessions are watched: null = this relay; else events are fetched from that peer.
    relay: text("relay"),
    remoteSubscriptionId: text("remote_subscription_id"),
    scope: text("scope").$type<SubscriptionScope>().notNull(),
    sessions: jsonb("sessions").$type<string[]>().notNull().default([]),
    exclude: jsonb("exclude").$type<string[]>().notNull().default([]),
    events: jsonb("events").$type<string[]>().notNull(),
    // false = the default set, which follows the relay's defaults as they change (R-EVT-05).
    eventsNamed: boolean("events_named").notNull(),
    once: boolean("once").notNull().default(false),
    match: text("match"),
    stalledMinutes: integer("stalled_minutes").notNull().default(15),
    heartbeatMinutes: integer("heartbeat_minutes"),
    digestMinutes: integer("digest_minutes"),
    quietHours: jsonb("quiet_hours").$type<QuietHours>(),
    createdAt: instant("created_at").notNull(),
    nextDigestAt: instant("next_digest_at"),
    nextHeartbeatAt: instant("next_heartbeat_at"),
    linkLostAt: instant("link_lost_at"),
    endedAt: instant("ended_at"),
    endReason: text("end_reason").$type<SubscriptionEndReason>(),
  },
  (t) => [
    index("subscriptions_watcher_idx").on(t.watcherSession, t.endedAt),
    index("subscriptions_relay_idx").on(t.relay).where(sql`ended_at is null`),
    oneOf("subscriptions_scope_check", t.scope, SUBSCRIPTION_SCOPES),
    oneOf("subscriptions_end_reason_check", t.endReason, SUBSCRIPTION_END_REASONS),
  ],
);

/** What happened in a session; `seq` is the cursor peers replay from (R-PAIR-04). */
export const events = pgTable(
  "events",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    // Null for this relay's sessions; a peer's name for events fetched from it.
    sourceRelay: text("source_relay"),
    sessionId: text("session_id").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<JsonObject>().notNull(),
    at: instant("at").notNull(),
  },
  (t) => [index("events_session_seq_idx").on(t.sessionId, t.seq), index("events_at_idx").on(t.at)],
);

/** A 30 s grouping window of one watcher: everything in it goes out as one message (R-DLV-04). */
export const groupedMessages = pgTable(
  "grouped_messages",
  {
    id: text("id").primaryKey(),
    watcherSession: text("watcher_session").notNull(),
    windowStart: instant("window_start").notNull(),
    windowEnd: instant("window_end").notNull(),
    status: text("status").$type<GroupedMessageStatus>().notNull(),
    messageId: text("message_id"),
    claimedBy: text("claimed_by"),
    claimedUntil: instant("claimed_until"),
    sentAt: instant("sent_at"),
  },
  (t) => [
    unique("grouped_messages_window_key").on(t.watcherSession, t.windowStart),
    index("grouped_messages_due_idx").on(t.status, t.windowEnd),
    oneOf("grouped_messages_status_check", t.status, GROUPED_MESSAGE_STATUSES),
  ],
);

/** Events a digest, quiet hours or the hourly cap hold until `dueAt` (R-FEW-23: they survive restarts). */
export const heldDigests = pgTable(
  "held_digests",
  {
    id: text("id").primaryKey(),
    watcherSession: text("watcher_session").notNull(),
    // Null for the hourly-cap digest, which is the watcher's rather than one subscription's.
    subscriptionId: text("subscription_id").references(() => subscriptions.id),
    reason: text("reason").$type<DigestReason>().notNull(),
    dueAt: instant("due_at").notNull(),
    createdAt: instant("created_at").notNull(),
    claimedBy: text("claimed_by"),
    claimedUntil: instant("claimed_until"),
    deliveredAt: instant("delivered_at"),
  },
  (t) => [
    unique("held_digests_slot_key")
      .on(t.watcherSession, t.subscriptionId, t.reason, t.dueAt)
      .nullsNotDistinct(),
    index("held_digests_due_idx").on(t.dueAt).where(sql`delivered_at is null`),
    oneOf("held_digests_reason_check", t.reason, DIGEST_REASONS),
  ],
);

/** The outbox: one row per (subscription, event), so a retried step never delivers twice. */
export const deliveries = pgTable(
  "deliveries",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    watcherSession: text("watcher_session").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull(),
    dueAt: instant("due_at").notNull(),
    groupedMessageId: text("grouped_message_id").references(() => groupedMessages.id),
    heldDigestId: text("held_digest_id").references(() => heldDigests.id),
    attempts: integer("attempts").notNull().default(0),
    claimedBy: text("claimed_by"),
    claimedUntil: instant("claimed_until"),
    createdAt: instant("created_at").notNull(),
    sentAt: instant("sent_at"),
  },
  (t) => [
    unique("deliveries_subscription_event_key").on(t.subscriptionId, t.eventId),
    index("deliveries_due_idx").on(t.status, t.dueAt),
    index("deliveries_watcher_idx").on(t.watcherSession, t.status),
    oneOf("deliveries_status_check", t.status, DELIVERY_STATUSES),
  ],
);
