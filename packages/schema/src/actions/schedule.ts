import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { minutesArg, sessionArg, textArg, thisRelayArg, titleArg } from "../args/common";
import { describeValue } from "../call/describe-value";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";
import { SessionRefSchema } from "../results/common";
import { IsoDateTimeSchema, isIsoDateTimeWithOffset } from "../time/iso-date-time";

const atArg = z
  .string()
  .refine(isIsoDateTimeWithOffset, {
    error: (issue) =>
      `at must be an ISO 8601 date and time with an offset or Z, e.g. "2026-11-02T02:00:00Z" (got ${describeValue(issue.input)})`,
  })
  .meta({ description: 'When to fire (first): ISO 8601 with an offset or Z, e.g. "2026-11-02T02:00:00Z".' });

/**
 * R-SCH-04 … R-SCH-06, DESIGN GAP-18: only `at` fires once; only `every_minutes` first fires one
 * interval from now; both fire at `at`, then on that grid. Schedules live on this relay only
 * (R-SCH-03): the engine refuses a paired relay, which the schema cannot tell from this one's name.
 */
export const ScheduleArgsSchema = actionArgs("schedule", {
  relay: thisRelayArg,
  title: titleArg,
  at: atArg.optional(),
  every_minutes: minutesArg(
    LIMITS.everyMinutesMax,
    `Repeat every N minutes (1 to ${LIMITS.everyMinutesMax}, one year).`,
  ).optional(),
  text: textArg,
  session: sessionArg
    .meta({
      description: "Another session on this relay to queue the prompt in; default: this conversation.",
    })
    .optional(),
}).superRefine((args, ctx) => {
  if (args.at === undefined && args.every_minutes === undefined) {
    ctx.addIssue({
      code: "custom",
      message: "schedule needs at (when to fire) or every_minutes (how often to repeat), or both",
    });
  }
});
export type ScheduleArgs = z.infer<typeof ScheduleArgsSchema>;

export const ScheduleSchema = z.object({
  id: z.string(),
  title: z.string(),
  at: IsoDateTimeSchema.nullable().optional(),
  everyMinutes: z.number().int().min(1).nullable(),
  once: z.boolean(),
  nextFireAt: IsoDateTimeSchema.nullable(),
  session: SessionRefSchema.optional(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleResultSchema = okResultSchema({ schedule_id: z.string(), schedule: ScheduleSchema });
export type ScheduleResult = z.infer<typeof ScheduleResultSchema>;
