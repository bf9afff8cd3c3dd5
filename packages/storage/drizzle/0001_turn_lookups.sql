CREATE INDEX "questions_turn_idx" ON "questions" USING btree ("turn_id");--> statement-breakpoint
CREATE INDEX "turns_prompt_message_idx" ON "turns" USING btree ("prompt_message_id");