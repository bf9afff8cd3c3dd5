import { z } from "zod";
import { ErrorCodeSchema } from "../errors/error-codes";
import { LIMITS } from "../limits";
import { ErrorGroupsSchema } from "../results/common";

const oneLine = z
  .string()
  .min(1)
  .refine((text) => !/[\r\n]/.test(text), { error: "summary must be one line" });

const IgnoredSchema = z.array(z.string()).max(LIMITS.ignoredMax);

/** What every successful result carries (R-CALL-03, R-CALL-08). */
export const OkEnvelopeBaseSchema = z.object({
  ok: z.literal(true),
  relay: z.string().min(1),
  summary: oneLine,
  ignored: IgnoredSchema.optional(),
  note: z.string().optional(),
});
export type OkEnvelopeBase = z.infer<typeof OkEnvelopeBaseSchema>;

/** A refused call (R-CALL-04, R-ERR-02, R-ERR-03). */
export const ErrorEnvelopeSchema = z.object({
  ok: z.literal(false),
  code: ErrorCodeSchema,
  error: z.string().min(1),
  remoteCode: z.string().optional(),
  groups: ErrorGroupsSchema.optional(),
  groupsTotal: z.number().int().min(0).optional(),
  suggestions: z.array(z.string()).optional(),
  models: z.array(z.string()).optional(),
  ignored: IgnoredSchema.optional(),
  requestId: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/**
 * Any result of relay_tool, as a peer or a client receives it: the action-specific fields of a
 * success pass through untouched, since the receiver may be older than the sender.
 */
export const RelayToolResultEnvelopeSchema = z.discriminatedUnion("ok", [
  OkEnvelopeBaseSchema.loose(),
  ErrorEnvelopeSchema,
]);
export type RelayToolResultEnvelope = z.infer<typeof RelayToolResultEnvelopeSchema>;

/** Extends the success base with an action's own fields. */
export function okResultSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return OkEnvelopeBaseSchema.extend(shape);
}
