ALTER TABLE "subscriptions" ADD COLUMN "watcher_relay" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "relay" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "remote_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "remote_cursor" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "link_lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "remote_ended_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscriptions_mirrors_idx" ON "subscriptions" USING btree ("relay","seq") WHERE ended_at is null and relay is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_mirrors_to_end_idx" ON "subscriptions" USING btree ("seq") WHERE relay is not null and ended_at is not null and remote_ended_at is null;
