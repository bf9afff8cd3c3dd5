import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { relayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { IsoDateTimeSchema } from "../time/iso-date-time";

export const UsageArgsSchema = actionArgs("usage", { relay: relayArg });
export type UsageArgs = z.infer<typeof UsageArgsSchema>;

/** R-USAGE-03: unconfigured and untracked providers say so instead of giving counters. */
export const UsageStatusSchema = z.enum(["ok", "limited", "exhausted", "not_configured", "not_tracked"]);
export type UsageStatus = z.infer<typeof UsageStatusSchema>;

/** R-USAGE-02. Never an account name, address or token (R-USAGE-04). */
export const ProviderUsageSchema = z.object({
  provider: z.string(),
  status: UsageStatusSchema,
  unit: z.string().optional(),
  consumed: z.number().min(0).optional(),
  allocation: z.number().min(0).optional(),
  remaining: z.number().optional(),
  /** consumed / allocation, as a ratio (1 = all used). */
  utilization: z.number().min(0).optional(),
  resetAt: IsoDateTimeSchema.nullable().optional(),
  /** A Claude usage limit has paused turns on that relay. */
  pausedByUsageLimit: z.boolean().optional(),
});
export type ProviderUsage = z.infer<typeof ProviderUsageSchema>;

export const UsageResultSchema = okResultSchema({ providers: z.array(ProviderUsageSchema) });
export type UsageResult = z.infer<typeof UsageResultSchema>;
