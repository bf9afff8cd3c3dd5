CREATE TABLE "tool_calls" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "tool_calls_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"action" text NOT NULL,
	"relay" text NOT NULL,
	"target_session" text,
	"ok" boolean NOT NULL,
	"code" text,
	"summary" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_calls_session_created_idx" ON "tool_calls" USING btree ("session_id","created_at");