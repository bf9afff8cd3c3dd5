import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { questionIdArg, thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";

/** R-WDR-01, R-WDR-02: only the asking conversation, only while pending. */
export const WithdrawArgsSchema = actionArgs("withdraw", { relay: thisRelayArg, question_id: questionIdArg });
export type WithdrawArgs = z.infer<typeof WithdrawArgsSchema>;

export const WithdrawResultSchema = okResultSchema({
  question_id: z.string(),
  status: z.literal("withdrawn"),
});
export type WithdrawResult = z.infer<typeof WithdrawResultSchema>;
