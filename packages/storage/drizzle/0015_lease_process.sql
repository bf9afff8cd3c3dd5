ALTER TABLE "leases" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "pid" integer;