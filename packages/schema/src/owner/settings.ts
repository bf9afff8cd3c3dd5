import { z } from "zod";
import { storableBody } from "../input/storable-input";
import { LIMITS } from "../limits";
import { hasAnyField } from "./at-least-one";

const longestWaitSeconds = z
  .number()
  .int()
  .min(LIMITS.longestWaitSecondsMin)
  .max(LIMITS.longestWaitSecondsMax);
const quietAfterMinutes = z.number().int().min(1).max(LIMITS.quietAfterMinutesMax);
const maxTurnSeconds = z.number().int().min(LIMITS.maxTurnSecondsMin).max(LIMITS.maxTurnSecondsMax);
const ALLOWED_ROOTS_READ_ONLY =
  "read-only: the folders sessions may use are set by RELAY_ALLOWED_ROOTS when the relay starts.";
/** Per-provider configuration is the provider's business; the contract only fixes its place. */
const providers = z.record(z.string(), z.record(z.string(), z.unknown()));
/** A patch's entry replaces the provider's; `null` removes it (DESIGN §4). */
const providersPatch = z.record(z.string(), z.record(z.string(), z.unknown()).nullable());

/**
 * GET /v1/owner/settings; parsing `{}` gives the defaults. Agent sessions start enabled so the
 * first run works (DESIGN GAP-02); the longest wait is 10 min, settable 2–60 min (R-WST-02).
 */
export const OwnerSettingsSchema = z.object({
  agentSessions: z
    .object({
      enabled: z.boolean().default(true),
      longestWaitSeconds: longestWaitSeconds.default(LIMITS.longestWaitSecondsDefault),
    })
    .prefault({}),
  acceptPromptsFromOtherRelays: z.boolean().default(true),
  quietAfterMinutes: quietAfterMinutes.default(LIMITS.quietAfterMinutesDefault),
  maxTurnSeconds: maxTurnSeconds.default(LIMITS.maxTurnSecondsDefault),
  providers: providers.default({}),
  /**
   * The folders sessions may use, as real paths; the first is the default folder of new sessions
   * (DESIGN §4, §7). Read-only: set by RELAY_ALLOWED_ROOTS when the relay starts, never stored.
   */
  allowedRoots: z.array(z.string()).optional(),
});
export type OwnerSettings = z.infer<typeof OwnerSettingsSchema>;

/** PATCH /v1/owner/settings: any subset, nothing else. */
export const OwnerSettingsPatchSchema = storableBody(
  z
    .strictObject({
      agentSessions: z
        .strictObject({ enabled: z.boolean().optional(), longestWaitSeconds: longestWaitSeconds.optional() })
        .refine(hasAnyField, { error: "agentSessions names no field to change." })
        .optional(),
      acceptPromptsFromOtherRelays: z.boolean().optional(),
      quietAfterMinutes: quietAfterMinutes.optional(),
      maxTurnSeconds: maxTurnSeconds.optional(),
      providers: providersPatch.optional(),
      allowedRoots: z.never({ error: ALLOWED_ROOTS_READ_ONLY }).optional(),
    })
    .refine(hasAnyField, { error: "The body names no setting to change." }),
);
export type OwnerSettingsPatch = z.infer<typeof OwnerSettingsPatchSchema>;
