import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { idArg, thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { SubscriptionEntrySchema } from "../results/subscription";

/** R-LSUB-01 … R-LSUB-07. */
export const ListSubscriptionsArgsSchema = actionArgs("list_subscriptions", {
  relay: thisRelayArg,
  watcher: idArg(
    "Id of another conversation whose subscriptions to show (before taking them over).",
  ).optional(),
});
export type ListSubscriptionsArgs = z.infer<typeof ListSubscriptionsArgsSchema>;

export const ListSubscriptionsResultSchema = okResultSchema({
  watcher: z.string().optional(),
  subscriptions: z.array(SubscriptionEntrySchema),
});
export type ListSubscriptionsResult = z.infer<typeof ListSubscriptionsResultSchema>;
