ALTER TABLE "schedule_firings" DROP CONSTRAINT "schedule_firings_status_check";--> statement-breakpoint
-- A hold is a schedule's state (held_since), not a slot's: a slot recorded held was not fired.
UPDATE "schedule_firings" SET "status" = 'skipped' WHERE "status" = 'held';--> statement-breakpoint
DROP INDEX "schedules_due_idx";--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "anchor" timestamp with time zone;--> statement-breakpoint
-- A schedule made before the anchor was kept: its first slot is `at`, else one interval after creation (GAP-18).
UPDATE "schedules" SET "anchor" = coalesce("at", "created_at" + make_interval(mins => coalesce("every_minutes", 0)));--> statement-breakpoint
ALTER TABLE "schedules" ALTER COLUMN "anchor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "last_turn_id" text;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
UPDATE "schedules" SET "due_at" = "next_fire_at" WHERE "ended_at" IS NULL;--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "schedules" USING btree ("due_at") WHERE ended_at is null;--> statement-breakpoint
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_status_check" CHECK ("schedule_firings"."status" in ('fired', 'skipped'));
