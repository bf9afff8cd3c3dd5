import { z } from "zod";
import { SubscriptionEntrySchema } from "../results/subscription";

/**
 * One subscription in the `watching N sessions` chip (R-UI-06), as list_subscriptions shows it
 * (its sessions with their titles, events, digest, quiet hours…) plus where it watches: `relay`
 * null = this relay's sessions, else the paired relay's name (a mirror, §28). `exclude` is
 * always there, so the chip needs no default.
 */
export const OwnerSubscriptionSchema = z.looseObject({
  ...SubscriptionEntrySchema.shape,
  relay: z.string().nullable(),
  exclude: z.array(z.string()),
});
export type OwnerSubscription = z.infer<typeof OwnerSubscriptionSchema>;

/**
 * POST /v1/owner/subscriptions/:id/unsubscribe (R-SLIFE-02 (a)): the ids it ended; none, with a
 * `note`, when the subscription had ended already.
 */
export const OwnerUnsubscribeResultSchema = z.looseObject({
  ended: z.array(z.string()),
  note: z.string().optional(),
});
export type OwnerUnsubscribeResult = z.infer<typeof OwnerUnsubscribeResultSchema>;
