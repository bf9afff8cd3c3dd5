import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { sessionArg, thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { SessionRefSchema } from "../results/common";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { QuestionStatusSchema } from "../vocabulary";

/** R-LQ-01 … R-LQ-03. */
export const ListQuestionsArgsSchema = actionArgs("list_questions", {
  relay: thisRelayArg,
  session: sessionArg.meta({ description: "List the questions about this other session." }).optional(),
});
export type ListQuestionsArgs = z.infer<typeof ListQuestionsArgsSchema>;

/** Pending questions, and those closed within the last day, with status and answer. */
export const QuestionEntrySchema = z.object({
  question_id: z.string(),
  session: SessionRefSchema,
  question: z.string(),
  options: z.array(z.string()).optional(),
  recommendation: z.string().optional(),
  detail: z.string().optional(),
  status: QuestionStatusSchema,
  answer: z.string().nullable(),
  choice: z.string().nullable(),
  via: z.string().nullable().optional(),
  askedAt: IsoDateTimeSchema,
  closedAt: IsoDateTimeSchema.nullable().optional(),
});
export type QuestionEntry = z.infer<typeof QuestionEntrySchema>;

export const ListQuestionsResultSchema = okResultSchema({ questions: z.array(QuestionEntrySchema) });
export type ListQuestionsResult = z.infer<typeof ListQuestionsResultSchema>;
