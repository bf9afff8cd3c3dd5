import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { minutesArg, stringListArg, thisRelayArg } from "../args/common";
import { QuietHoursSchema } from "../args/quiet-hours";
import { nonBlankString } from "../args/text";
import { okResultSchema } from "../envelope/envelopes";
import { SubscribableEventSchema } from "../events";
import { LIMITS } from "../limits";
import { SubscriptionSchema } from "../results/subscription";

// Exact wording of R-FEW-19.
export const EXCLUDE_NEEDS_ALL_MESSAGE =
  'exclude goes with sessions ["all"] only; a list of sessions names what it watches.';

/**
 * R-SUB-05 … R-SUB-11, R-FEW-*, DESIGN GAP-11. `events` stays absent when not named, so the
 * relay that applies the default (R-EVT-01, or an older paired relay's own, R-EVT-06) decides.
 */
export const SubscribeArgsSchema = actionArgs("subscribe", {
  relay: thisRelayArg,
  sessions: z
    .array(nonBlankString(LIMITS.idMaxChars), {
      error: (issue) => {
        if (issue.code !== "invalid_type") {
          return undefined;
        }
        return issue.input === undefined
          ? 'sessions is required: a list of session ids, or ["all"]'
          : 'sessions must be a list of session ids, or ["all"]';
      },
    })
    .min(1)
    .max(LIMITS.sessionsMax)
    .meta({
      description: 'Session ids to watch, or ["all"] for every session of the relay but the caller\'s own.',
    }),
  events: z
    .array(SubscribableEventSchema)
    .min(1)
    .max(SubscribableEventSchema.options.length)
    .meta({
      description:
        "Events to be woken by. Default: question_asked, error, turn_end, subagent_finished, task_failed, stalled, all_idle.",
    })
    .optional(),
  once: z.boolean().meta({ description: "End the subscription when it first fires." }).default(false),
  match: nonBlankString(LIMITS.matchMaxChars)
    .meta({ description: "Only events whose text contains this substring." })
    .optional(),
  stalled_minutes: minutesArg(
    LIMITS.stalledMinutesMax,
    `Minutes without output after which a turn or task counts as stalled (default ${LIMITS.stalledMinutesDefault}).`,
  ).default(LIMITS.stalledMinutesDefault),
  heartbeat_minutes: minutesArg(
    LIMITS.heartbeatMinutesMax,
    "Send a heartbeat with the watched sessions' states every N minutes (none by default).",
  ).optional(),
  exclude: stringListArg({
    maxEntries: LIMITS.excludeMax,
    maxChars: LIMITS.idMaxChars,
    description: 'With sessions ["all"]: session ids to leave out.',
  }).optional(),
  digest_minutes: minutesArg(
    LIMITS.digestMinutesMax,
    "Gather events and deliver them as one message every N minutes; questions and errors still come at once.",
  ).optional(),
  quiet_hours: QuietHoursSchema.optional(),
}).superRefine((args, ctx) => {
  const all = args.sessions.includes("all");
  if (all && args.sessions.length > 1) {
    ctx.addIssue({
      code: "custom",
      path: ["sessions"],
      message: 'sessions takes ["all"] alone, or a list of session ids',
    });
  }
  if (args.exclude !== undefined && !all) {
    ctx.addIssue({ code: "custom", path: ["exclude"], message: EXCLUDE_NEEDS_ALL_MESSAGE });
  }
});
export type SubscribeArgs = z.infer<typeof SubscribeArgsSchema>;

export const SubscribeResultSchema = okResultSchema({ subscription: SubscriptionSchema });
export type SubscribeResult = z.infer<typeof SubscribeResultSchema>;
