import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { idArg, thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";

/** R-XFER-01 … R-XFER-03: always asks the user. */
export const TransferSubscriptionsArgsSchema = actionArgs("transfer_subscriptions", {
  relay: thisRelayArg,
  from: idArg("Id of the conversation whose subscriptions move to this one."),
});
export type TransferSubscriptionsArgs = z.infer<typeof TransferSubscriptionsArgsSchema>;

export const TransferSubscriptionsResultSchema = okResultSchema({
  from: z.string(),
  transferred: z.array(z.string()),
});
export type TransferSubscriptionsResult = z.infer<typeof TransferSubscriptionsResultSchema>;
