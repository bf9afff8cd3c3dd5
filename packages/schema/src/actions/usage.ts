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

/** The counters of a provider's usage, by field name. */
export const UsageCounterSchema = z.enum([
  "consumed",
  "allocation",
  "remaining",
  "utilization",
  "inputTokens",
  "outputTokens",
]);
export type UsageCounter = z.infer<typeof UsageCounterSchema>;

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
  /** Tokens the provider's models read (cached prompt tokens included) and wrote this period. */
  inputTokens: z.number().int().min(0).optional(),
  outputTokens: z.number().int().min(0).optional(),
  /**
   * The counters that are estimates, not counts: a cost the provider works out itself (Claude
   * Code prices the tokens from its own table) and what is computed from it. Counters not named
   * here are exact.
   */
  estimated: z.array(UsageCounterSchema).optional(),
  /** How the estimated counters are made, in words. */
  estimateNote: z.string().optional(),
  resetAt: IsoDateTimeSchema.nullable().optional(),
  /** A Claude usage limit has paused turns on that relay. */
  pausedByUsageLimit: z.boolean().optional(),
});
export type ProviderUsage = z.infer<typeof ProviderUsageSchema>;

export const UsageResultSchema = okResultSchema({ providers: z.array(ProviderUsageSchema) });
export type UsageResult = z.infer<typeof UsageResultSchema>;
