CREATE TABLE "approval_cards" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "approval_cards_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"conversation" text NOT NULL,
	"action" text NOT NULL,
	"target_relay" text NOT NULL,
	"target_session" text,
	"detail" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "approval_cards_kind_check" CHECK ("approval_cards"."kind" in ('first_create_session', 'first_subscribe', 'write_in_mode', 'update_other_session', 'transfer_subscriptions', 'anti_loop')),
	CONSTRAINT "approval_cards_status_check" CHECK ("approval_cards"."status" in ('pending', 'allowed', 'denied', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "deliveries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"event_id" text NOT NULL,
	"watcher_session" text NOT NULL,
	"status" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"grouped_message_id" text,
	"held_digest_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "deliveries_subscription_event_key" UNIQUE("subscription_id","event_id"),
	CONSTRAINT "deliveries_status_check" CHECK ("deliveries"."status" in ('pending', 'held', 'grouped', 'sent', 'dropped'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"source_relay" text,
	"session_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grouped_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"watcher_session" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"message_id" text,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	CONSTRAINT "grouped_messages_window_key" UNIQUE("watcher_session","window_start"),
	CONSTRAINT "grouped_messages_status_check" CHECK ("grouped_messages"."status" in ('open', 'sent'))
);
--> statement-breakpoint
CREATE TABLE "held_digests" (
	"id" text PRIMARY KEY NOT NULL,
	"watcher_session" text NOT NULL,
	"subscription_id" text,
	"reason" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "held_digests_slot_key" UNIQUE NULLS NOT DISTINCT("watcher_session","subscription_id","reason","due_at"),
	CONSTRAINT "held_digests_reason_check" CHECK ("held_digests"."reason" in ('digest', 'quiet_hours', 'hourly_cap'))
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"fencing_token" bigint NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loop_counters" (
	"conversation" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"turn_id" text,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"provenance" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "messages_role_check" CHECK ("messages"."role" in ('user', 'assistant', 'event', 'system'))
);
--> statement-breakpoint
CREATE TABLE "peer_event_cursors" (
	"peer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"cursor" text NOT NULL,
	"event_id" text,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "peer_event_cursors_peer_id_subscription_id_cursor_pk" PRIMARY KEY("peer_id","subscription_id","cursor")
);
--> statement-breakpoint
CREATE TABLE "peers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"level" text DEFAULT 'full' NOT NULL,
	"outbound_token" text NOT NULL,
	"inbound_token_hash" text,
	"version" text,
	"features" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone,
	"link_lost_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	CONSTRAINT "peers_level_check" CHECK ("peers"."level" in ('none', 'read', 'prompt', 'full'))
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "questions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"asking_relay" text,
	"asking_session" text NOT NULL,
	"session_id" text NOT NULL,
	"kept_on_relay" text,
	"remote_question_id" text,
	"turn_id" text,
	"text" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recommendation" text,
	"detail" text,
	"status" text NOT NULL,
	"answer" text,
	"choices" jsonb,
	"via" text,
	"provenance" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"next_poll_at" timestamp with time zone,
	CONSTRAINT "questions_kind_check" CHECK ("questions"."kind" in ('ask_user', 'ask')),
	CONSTRAINT "questions_status_check" CHECK ("questions"."status" in ('pending', 'answered', 'dismissed', 'withdrawn', 'ended'))
);
--> statement-breakpoint
CREATE TABLE "relay_unlocks" (
	"conversation" text NOT NULL,
	"relay" text NOT NULL,
	"how" text NOT NULL,
	"unlocked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "relay_unlocks_conversation_relay_pk" PRIMARY KEY("conversation","relay"),
	CONSTRAINT "relay_unlocks_how_check" CHECK ("relay_unlocks"."how" in ('mention', 'agent'))
);
--> statement-breakpoint
CREATE TABLE "schedule_firings" (
	"id" text PRIMARY KEY NOT NULL,
	"schedule_id" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"turn_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "schedule_firings_slot_key" UNIQUE("schedule_id","slot"),
	CONSTRAINT "schedule_firings_status_check" CHECK ("schedule_firings"."status" in ('fired', 'skipped', 'held'))
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"session_id" text NOT NULL,
	"created_by" text NOT NULL,
	"at" timestamp with time zone,
	"every_minutes" integer,
	"once" boolean NOT NULL,
	"next_fire_at" timestamp with time zone,
	"last_fired_at" timestamp with time zone,
	"fired_count" integer DEFAULT 0 NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"held_since" timestamp with time zone,
	"provenance" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	CONSTRAINT "schedules_end_reason_check" CHECK ("schedules"."end_reason" in ('unscheduled', 'fired', 'archived', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "session_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text,
	"created_by_agent" boolean NOT NULL,
	"head_session_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_active_at" timestamp with time zone NOT NULL,
	"dissolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"effort" text,
	"mode" text DEFAULT 'agent' NOT NULL,
	"cwd" text,
	"repo" text,
	"branch" text,
	"state" text DEFAULT 'idle' NOT NULL,
	"created_by_relay" text,
	"created_by_session" text,
	"via_agent" text,
	"may_create_sessions" boolean DEFAULT false NOT NULL,
	"group_id" text,
	"group_role" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"provider_state" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"archived_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "sessions_mode_check" CHECK ("sessions"."mode" in ('agent', 'ask', 'plan')),
	CONSTRAINT "sessions_state_check" CHECK ("sessions"."state" in ('running_turn', 'background_only', 'idle')),
	CONSTRAINT "sessions_group_role_check" CHECK ("sessions"."group_role" in ('head', 'member'))
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"watcher_relay" text,
	"watcher_session" text NOT NULL,
	"relay" text,
	"remote_subscription_id" text,
	"scope" text NOT NULL,
	"sessions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"exclude" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"events_named" boolean NOT NULL,
	"once" boolean DEFAULT false NOT NULL,
	"match" text,
	"stalled_minutes" integer DEFAULT 15 NOT NULL,
	"heartbeat_minutes" integer,
	"digest_minutes" integer,
	"quiet_hours" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"next_digest_at" timestamp with time zone,
	"next_heartbeat_at" timestamp with time zone,
	"link_lost_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	CONSTRAINT "subscriptions_scope_check" CHECK ("subscriptions"."scope" in ('all', 'list')),
	CONSTRAINT "subscriptions_end_reason_check" CHECK ("subscriptions"."end_reason" in ('unsubscribed', 'once', 'archived', 'unpaired', 'transferred', 'watcher_archived'))
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"turn_id" text,
	"kind" text NOT NULL,
	"name" text,
	"description" text NOT NULL,
	"command" text,
	"status" text NOT NULL,
	"exit_code" integer,
	"output_path" text,
	"counts" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"last_output_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "tasks_kind_check" CHECK ("tasks"."kind" in ('shell', 'subagent', 'monitor')),
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('running', 'done', 'failed', 'stopped'))
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"subject" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "tokens_hash_key" UNIQUE("hash"),
	CONSTRAINT "tokens_kind_check" CHECK ("tokens"."kind" in ('owner', 'agent', 'peer'))
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "turns_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"status" text NOT NULL,
	"prompt_message_id" text,
	"origin" jsonb NOT NULL,
	"reply" text,
	"error" text,
	"queued_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "turns_status_check" CHECK ("turns"."status" in ('queued', 'running', 'done', 'error', 'stopped'))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_grouped_message_id_grouped_messages_id_fk" FOREIGN KEY ("grouped_message_id") REFERENCES "public"."grouped_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_held_digest_id_held_digests_id_fk" FOREIGN KEY ("held_digest_id") REFERENCES "public"."held_digests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_digests" ADD CONSTRAINT "held_digests_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "peer_event_cursors" ADD CONSTRAINT "peer_event_cursors_peer_id_peers_id_fk" FOREIGN KEY ("peer_id") REFERENCES "public"."peers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "peer_event_cursors" ADD CONSTRAINT "peer_event_cursors_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_groups" ADD CONSTRAINT "session_groups_head_session_id_sessions_id_fk" FOREIGN KEY ("head_session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_group_id_session_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."session_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_cards_status_expiry_idx" ON "approval_cards" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "approval_cards_conversation_idx" ON "approval_cards" USING btree ("conversation","kind");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "deliveries_watcher_idx" ON "deliveries" USING btree ("watcher_session","status");--> statement-breakpoint
CREATE INDEX "events_session_seq_idx" ON "events" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "events_at_idx" ON "events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "grouped_messages_due_idx" ON "grouped_messages" USING btree ("status","window_end");--> statement-breakpoint
CREATE INDEX "held_digests_due_idx" ON "held_digests" USING btree ("due_at") WHERE delivered_at is null;--> statement-breakpoint
CREATE INDEX "messages_session_seq_idx" ON "messages" USING btree ("session_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "peers_name_key" ON "peers" USING btree (lower("name")) WHERE removed_at is null;--> statement-breakpoint
CREATE INDEX "questions_asking_idx" ON "questions" USING btree ("asking_session","status");--> statement-breakpoint
CREATE INDEX "questions_session_idx" ON "questions" USING btree ("session_id","status");--> statement-breakpoint
CREATE INDEX "questions_poll_idx" ON "questions" USING btree ("next_poll_at");--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "schedules" USING btree ("next_fire_at") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "schedules_session_idx" ON "schedules" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "schedules_created_by_idx" ON "schedules" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "session_groups_name_idx" ON "session_groups" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "session_groups_last_active_idx" ON "session_groups" USING btree ("last_active_at");--> statement-breakpoint
CREATE INDEX "sessions_created_by_idx" ON "sessions" USING btree ("created_by_session","created_by_relay");--> statement-breakpoint
CREATE INDEX "sessions_group_idx" ON "sessions" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "sessions_last_activity_idx" ON "sessions" USING btree ("last_activity_at");--> statement-breakpoint
CREATE INDEX "subscriptions_watcher_idx" ON "subscriptions" USING btree ("watcher_session","ended_at");--> statement-breakpoint
CREATE INDEX "subscriptions_relay_idx" ON "subscriptions" USING btree ("relay") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "tasks_session_idx" ON "tasks" USING btree ("session_id","started_at");--> statement-breakpoint
CREATE INDEX "tasks_status_idx" ON "tasks" USING btree ("status");--> statement-breakpoint
CREATE INDEX "tokens_subject_idx" ON "tokens" USING btree ("kind","subject");--> statement-breakpoint
CREATE INDEX "turns_session_status_seq_idx" ON "turns" USING btree ("session_id","status","seq");--> statement-breakpoint
CREATE INDEX "turns_status_idx" ON "turns" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "turns_one_running_per_session" ON "turns" USING btree ("session_id") WHERE status = 'running';