ALTER TABLE "questions" DROP CONSTRAINT "questions_kind_check";--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_status_check";--> statement-breakpoint
ALTER TABLE "tokens" DROP CONSTRAINT "tokens_kind_check";--> statement-breakpoint
UPDATE "tokens" SET "kind" = 'invite' WHERE "kind" = 'peer';--> statement-breakpoint
UPDATE "tasks" SET "status" = 'finished' WHERE "status" = 'done';--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_kind_check" CHECK ("questions"."kind" in ('ask', 'ask_user'));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('running', 'finished', 'failed', 'stopped'));--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_kind_check" CHECK ("tokens"."kind" in ('owner', 'agent', 'invite'));