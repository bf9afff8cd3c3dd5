import { z } from "zod";
import { actionArgs } from "../args/action-args";
import {
  cwdArg,
  effortArg,
  groupArg,
  modeArg,
  modelArg,
  relayArg,
  sessionArg,
  titleArg,
} from "../args/common";
import { nonBlankString } from "../args/text";
import { describeValue } from "../call/describe-value";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";
import { GroupRefSchema } from "../results/common";
import { ModeSchema } from "../vocabulary";

/** The settings update_session changes (DESIGN GAP-09); `mayCreateSessions` is not one (R-UPD-03). */
export const UPDATE_SESSION_SETTINGS = [
  "model",
  "effort",
  "mode",
  "title",
  "group",
  "cwd",
  "auto_compact_window",
  "thinking_enabled",
  "thinking_display",
] as const;
export const UpdateSessionSettingSchema = z.enum(UPDATE_SESSION_SETTINGS);
export type UpdateSessionSetting = z.infer<typeof UpdateSessionSettingSchema>;

/** `group` value that takes the session out of its group (DESIGN GAP-08). */
export const LEAVE_GROUP = "none";

const autoCompactWindowArg = z
  .union([z.literal("auto"), z.number().int().min(0).max(LIMITS.autoCompactWindowMax)], {
    error: (issue) =>
      `auto_compact_window must be "auto" or a number of tokens from 0 to ${LIMITS.autoCompactWindowMax} (got ${describeValue(issue.input)})`,
  })
  .meta({
    description:
      'Context window at which the session compacts: "auto" or tokens; rounded to an allowed value (see note). Claude and DeepSeek sessions only.',
  });

// `false` counts as absent (R-CALL-09), because providers that send every field send false; so
// turning thinking off needs a value that is not empty: "off".
const thinkingEnabledArg = z
  .union([z.literal(true), z.enum(["on", "off"])], {
    error: (issue) =>
      `thinking_enabled must be true, "on" or "off" (got ${describeValue(issue.input)}); false counts as absent, so send "off" to turn thinking off`,
  })
  .transform((value) => value === true || value === "on")
  .meta({
    description: 'Extended thinking: true or "on" to enable, "off" to disable (false counts as absent).',
  });

export const UpdateSessionArgsSchema = actionArgs("update_session", {
  relay: relayArg,
  session: sessionArg,
  model: modelArg.optional(),
  effort: effortArg.optional(),
  mode: modeArg.optional(),
  title: titleArg.optional(),
  // "none" in any case leaves the group; normalised so the engine compares one spelling.
  group: groupArg
    .transform((group) => (group.toLowerCase() === LEAVE_GROUP ? LEAVE_GROUP : group))
    .optional(),
  cwd: cwdArg.optional(),
  auto_compact_window: autoCompactWindowArg.optional(),
  thinking_enabled: thinkingEnabledArg.optional(),
  thinking_display: nonBlankString(LIMITS.thinkingDisplayMaxChars)
    .meta({ description: 'How thinking is shown, e.g. "summarized". Claude sessions only.' })
    .optional(),
}).superRefine((args, ctx) => {
  if (UPDATE_SESSION_SETTINGS.every((setting) => args[setting] === undefined)) {
    ctx.addIssue({
      code: "custom",
      message: `update_session needs at least one setting to change: ${UPDATE_SESSION_SETTINGS.join(", ")}. Nothing was changed.`,
    });
  }
});
export type UpdateSessionArgs = z.infer<typeof UpdateSessionArgsSchema>;

/** R-UPD-04: the settings the session now has; null where the provider has no such setting. */
export const SessionSettingsSchema = z.object({
  model: z.string().nullable(),
  effort: z.string().nullable(),
  mode: ModeSchema,
  auto_compact_window: z.union([z.literal("auto"), z.number().int().min(0)]).nullable(),
  title: z.string(),
  group: GroupRefSchema.nullable(),
  thinking_enabled: z.boolean().nullable(),
  thinking_display: z.string().nullable(),
  cwd: z.string().nullable(),
});
export type SessionSettings = z.infer<typeof SessionSettingsSchema>;

/** R-UPD-04 … R-UPD-07, R-UPD-26. */
export const UpdateSessionResultSchema = okResultSchema({
  session: z.string(),
  settings: SessionSettingsSchema,
  changed: z.array(UpdateSessionSettingSchema),
  relaunched: z.boolean().optional(),
  groupCreated: z.object({ id: z.string(), name: z.string() }).optional(),
  modelNote: z.string().optional(),
});
export type UpdateSessionResult = z.infer<typeof UpdateSessionResultSchema>;
