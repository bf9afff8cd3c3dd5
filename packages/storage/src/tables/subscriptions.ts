import type { QuietHours, SubscribableEvent, SubscriptionEndReason, SubscriptionScope } from "@oar/schema";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { instant, oneOf, sequence } from "./columns";
import { SUBSCRIPTION_END_REASONS, SUBSCRIPTION_SCOPES } from "./vocabulary";

/** A conversation of this relay watching sessions of this relay (§23–§32); `seq` orders them oldest first. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    // The watching conversation.
    watcher: text("watcher").notNull(),
    // §28 on the watched relay: the paired relay whose conversation watches (null: this relay's).
    watcherRelay: text("watcher_relay"),
    // §28 on the watching relay, a mirror: the paired relay watched, its subscription there, the
    // replay cursor taken so far, and when the link was found lost.
    relay: text("relay"),
    remoteSubscriptionId: text("remote_subscription_id"),
    remoteCursor: text("remote_cursor"),
    linkLostAt: instant("link_lost_at"),
    // An ended mirror: when the subscription there was found ended too (null: to end there).
    remoteEndedAt: instant("remote_ended_at"),
    scope: text("scope").$type<SubscriptionScope>().notNull(),
    // The watched sessions of a `list` subscription; a session archived or deleted leaves it (GAP-17).
    sessions: jsonb("sessions").$type<string[]>().notNull().default([]),
    exclude: jsonb("exclude").$type<string[]>().notNull().default([]),
    // Null follows the relay's default set as it changes (R-EVT-05).
    events: jsonb("events").$type<SubscribableEvent[]>(),
    once: boolean("once").notNull().default(false),
    match: text("match"),
    stalledMinutes: integer("stalled_minutes").notNull(),
    heartbeatMinutes: integer("heartbeat_minutes"),
    digestMinutes: integer("digest_minutes"),
    quietHours: jsonb("quiet_hours").$type<QuietHours>(),
    createdAt: instant("created_at").notNull(),
    lastDigestAt: instant("last_digest_at"),
    // When its heartbeat or stall check is next due.
    nextTickAt: instant("next_tick_at"),
    endedAt: instant("ended_at"),
    endReason: text("end_reason").$type<SubscriptionEndReason>(),
  },
  (t) => [
    index("subscriptions_watcher_idx").on(t.watcher, t.endedAt),
    // Routing asks, for every event, which active subscriptions name its session (`sessions @> '["…"]'`)
    // and which watch all sessions.
    index("subscriptions_sessions_idx")
      .using("gin", t.sessions.op("jsonb_path_ops"))
      .where(sql`ended_at is null`),
    index("subscriptions_active_idx").on(t.scope, t.seq).where(sql`ended_at is null`),
    index("subscriptions_mirrors_idx").on(t.relay, t.seq).where(sql`ended_at is null and relay is not null`),
    index("subscriptions_mirrors_to_end_idx")
      .on(t.seq)
      .where(sql`relay is not null and ended_at is not null and remote_ended_at is null`),
    index("subscriptions_tick_idx").on(t.nextTickAt).where(sql`ended_at is null`),
    oneOf("subscriptions_scope_check", t.scope, SUBSCRIPTION_SCOPES),
    oneOf("subscriptions_end_reason_check", t.endReason, SUBSCRIPTION_END_REASONS),
  ],
);
