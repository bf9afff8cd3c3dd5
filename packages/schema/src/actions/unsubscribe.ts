import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { idArg, thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";

/** R-UNSUB-01 … R-UNSUB-03: "all" ends every subscription the conversation holds on that relay. */
export const UnsubscribeArgsSchema = actionArgs("unsubscribe", {
  relay: thisRelayArg,
  subscription_id: idArg('Id of the subscription to end, or "all".'),
});
export type UnsubscribeArgs = z.infer<typeof UnsubscribeArgsSchema>;

export const UnsubscribeResultSchema = okResultSchema({ ended: z.array(z.string()) });
export type UnsubscribeResult = z.infer<typeof UnsubscribeResultSchema>;
