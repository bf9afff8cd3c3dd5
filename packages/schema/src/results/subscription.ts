import { z } from "zod";
import { QuietHoursSchema } from "../args/quiet-hours";
import { SubscribableEventSchema } from "../events";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { SubscriptionEndReasonSchema, SubscriptionScopeSchema } from "../vocabulary";
import { SessionRefSchema } from "./common";

/** A subscription as subscribe returns it (R-SUB-10) and list_subscriptions shows it (R-LSUB-04). */
export const SubscriptionSchema = z.object({
  id: z.string(),
  scope: SubscriptionScopeSchema.optional(),
  /** The watched sessions, or "all" (R-LSUB-07). */
  sessions: z.union([z.literal("all"), z.array(SessionRefSchema)]),
  events: z.array(SubscribableEventSchema),
  once: z.boolean(),
  match: z.string().nullable().optional(),
  stalledMinutes: z.number().int().min(1),
  heartbeatMinutes: z.number().int().min(1).nullable().optional(),
  digestMinutes: z.number().int().min(1).optional(),
  quietHours: QuietHoursSchema.optional(),
  exclude: z.array(z.string()).optional(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

/** list_subscriptions entries: also what is held, and why an ended one ended (R-LSUB-01 … R-LSUB-06). */
export const SubscriptionEntrySchema = SubscriptionSchema.extend({
  active: z.boolean(),
  heldCount: z.number().int().min(0).optional(),
  nextDeliveryAt: IsoDateTimeSchema.nullable().optional(),
  endReason: SubscriptionEndReasonSchema.optional(),
  endedAt: IsoDateTimeSchema.optional(),
});
export type SubscriptionEntry = z.infer<typeof SubscriptionEntrySchema>;
