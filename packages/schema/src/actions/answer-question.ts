import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { questionIdArg, relayArg, stringListArg } from "../args/common";
import { nonBlankString } from "../args/text";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";

/** R-ANS-01 … R-ANS-06: one of choices and answer is required (R-ANS-03). */
export const AnswerQuestionArgsSchema = actionArgs("answer_question", {
  relay: relayArg,
  question_id: questionIdArg,
  choices: stringListArg({
    maxEntries: LIMITS.choicesMax,
    maxChars: LIMITS.choiceMaxChars,
    description: "The options picked on the question card.",
  }).optional(),
  answer: nonBlankString(LIMITS.answerMaxChars)
    .meta({ description: "A free-text answer to the question card." })
    .optional(),
}).superRefine((args, ctx) => {
  if (args.choices === undefined && args.answer === undefined) {
    ctx.addIssue({ code: "custom", message: "answer_question needs choices or answer (or both)" });
  }
});
export type AnswerQuestionArgs = z.infer<typeof AnswerQuestionArgsSchema>;

export const AnswerQuestionResultSchema = okResultSchema({
  session: z.string(),
  question_id: z.string(),
  choices: z.array(z.string()).optional(),
  answer: z.string().optional(),
});
export type AnswerQuestionResult = z.infer<typeof AnswerQuestionResultSchema>;
