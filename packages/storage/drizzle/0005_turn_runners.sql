ALTER TABLE "turns" ADD COLUMN "runner_lease" text;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "runner_token" bigint;--> statement-breakpoint
CREATE INDEX "turns_runner_idx" ON "turns" USING btree ("runner_lease") WHERE status = 'running';