import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { sessionArg, stringListArg, thisRelayArg } from "../args/common";
import { nonBlankString } from "../args/text";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";

/** R-ASK-01 … R-ASK-05, R-QCHK-02: with `session`, the question concerns another session. */
export const AskArgsSchema = actionArgs("ask", {
  relay: thisRelayArg,
  question: nonBlankString(LIMITS.questionMaxChars).meta({
    description: "The question for the user; the agent keeps working and gets question_answered later.",
  }),
  options: stringListArg({
    maxEntries: LIMITS.optionsMax,
    maxChars: LIMITS.optionMaxChars,
    description: "Answers the user can pick.",
  }).optional(),
  recommendation: nonBlankString(LIMITS.recommendationMaxChars)
    .meta({ description: "The answer the agent recommends." })
    .optional(),
  detail: nonBlankString(LIMITS.detailMaxChars)
    .meta({ description: "Context the user needs to answer." })
    .optional(),
  session: sessionArg
    .meta({
      description: "Ask on behalf of another session: the card shows there and both receive the answer.",
    })
    .optional(),
});
export type AskArgs = z.infer<typeof AskArgsSchema>;

/** R-ASK-03: returns at once, pending. */
export const AskResultSchema = okResultSchema({
  question_id: z.string(),
  status: z.literal("pending"),
  session: z.string().optional(),
});
export type AskResult = z.infer<typeof AskResultSchema>;
