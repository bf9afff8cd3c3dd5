ALTER TABLE "leases" ADD COLUMN "instance" text;--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "host" text;--> statement-breakpoint
-- The secret the processes of a cluster present to each other (DESIGN §9): made once, with the
-- database, so every process reads the same one; never the owner token.
INSERT INTO "settings" ("key", "value") VALUES ('cluster.secret', to_jsonb(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))) ON CONFLICT DO NOTHING;
