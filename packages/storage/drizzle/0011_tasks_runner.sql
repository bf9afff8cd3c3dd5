ALTER TABLE "tasks" ADD COLUMN "runner" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "pid" integer;--> statement-breakpoint
CREATE INDEX "tasks_output_idx" ON "tasks" USING btree ("ended_at") WHERE "tasks"."output_path" is not null and "tasks"."ended_at" is not null;