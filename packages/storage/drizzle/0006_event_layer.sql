-- The message role "event" is now "relay" (the relay's event messages to a watcher, R-DLV-01).
ALTER TABLE "messages" DROP CONSTRAINT "messages_role_check";--> statement-breakpoint
UPDATE "messages" SET "role" = 'relay' WHERE "role" = 'event';--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_role_check" CHECK ("messages"."role" in ('user', 'assistant', 'relay', 'system'));--> statement-breakpoint
-- The event tables of 0000 were never written by any version: they are replaced whole.
DROP TABLE "deliveries";--> statement-breakpoint
DROP TABLE "held_digests";--> statement-breakpoint
DROP TABLE "grouped_messages";--> statement-breakpoint
DROP TABLE "events";--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"session_id" text,
	"subscription_id" text,
	"payload" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "events_id_key" UNIQUE("id"),
	CONSTRAINT "events_kind_check" CHECK ("events"."kind" in ('turn_end', 'error', 'question_asked', 'question_answered', 'subagent_finished', 'task_started', 'task_finished', 'task_failed', 'stalled', 'all_idle', 'heartbeat', 'link_lost', 'link_restored', 'turn_started', 'session_archived', 'session_deleted'))
);
--> statement-breakpoint
CREATE TABLE "outbox_head" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "outbox_head_one_row" CHECK ("outbox_head"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "outbox_head" ("id", "seq") VALUES (1, 0);--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"watcher" text NOT NULL,
	"subscription_id" text,
	"event_id" text NOT NULL,
	"event_seq" bigint NOT NULL,
	"reason" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"echo_turn_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"message_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "deliveries_watcher_event_key" UNIQUE("watcher","event_id"),
	CONSTRAINT "deliveries_reason_check" CHECK ("deliveries"."reason" in ('window', 'urgent', 'digest', 'quiet', 'cap')),
	CONSTRAINT "deliveries_status_check" CHECK ("deliveries"."status" in ('pending', 'sent', 'dropped'))
);
--> statement-breakpoint
CREATE TABLE "delivery_watchers" (
	"watcher" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "routing_cursor" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "routing_cursor_one_row" CHECK ("routing_cursor"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "routing_cursor" ("id", "seq") VALUES (1, 0);--> statement-breakpoint
CREATE TABLE "wakeups" (
	"message_id" text PRIMARY KEY NOT NULL,
	"watcher" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "wakeups_kind_check" CHECK ("wakeups"."kind" in ('batch', 'urgent', 'cap'))
);
--> statement-breakpoint
CREATE TABLE "collected_replies" (
	"session_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "collected_replies_session_id_turn_id_pk" PRIMARY KEY("session_id","turn_id")
);
--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("due_at","watcher") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_watcher_idx" ON "deliveries" USING btree ("watcher","event_seq") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_subscription_idx" ON "deliveries" USING btree ("subscription_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "wakeups_watcher_idx" ON "wakeups" USING btree ("watcher","at");--> statement-breakpoint
-- Subscriptions (never written either; peer_event_cursors keeps its foreign key to them).
DROP INDEX "subscriptions_relay_idx";--> statement-breakpoint
DROP INDEX "subscriptions_watcher_idx";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "watcher_relay";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "watcher_session";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "relay";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "remote_subscription_id";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "events_named";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "next_digest_at";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "next_heartbeat_at";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "link_lost_at";--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "events" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "stalled_minutes" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "watcher" text NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "last_digest_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_tick_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscriptions_watcher_idx" ON "subscriptions" USING btree ("watcher","ended_at");--> statement-breakpoint
CREATE INDEX "subscriptions_sessions_idx" ON "subscriptions" USING gin ("sessions" jsonb_path_ops) WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "subscriptions_active_idx" ON "subscriptions" USING btree ("scope","seq") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "subscriptions_tick_idx" ON "subscriptions" USING btree ("next_tick_at") WHERE ended_at is null;
