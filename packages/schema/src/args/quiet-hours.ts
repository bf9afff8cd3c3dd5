import { z } from "zod";
import { describeValue } from "../call/describe-value";
import { isIanaTimeZone } from "../time/time-zone";

// Exact wording of R-FEW-16.
export const QUIET_HOURS_TIME_MESSAGE =
  'quiet_hours from and to must be times of day as "HH:MM" (00:00 to 23:59)';
export const QUIET_HOURS_DIFFER_MESSAGE = "quiet_hours from and to must differ";
const TZ_EXAMPLES = '(for example "Europe/Berlin", "America/New_York", "UTC")';

export function quietHoursTzMessage(tz: unknown): string {
  const shown = typeof tz === "string" ? JSON.stringify(tz) : describeValue(tz);
  return `quiet_hours tz ${shown} is not an IANA time zone ${TZ_EXAMPLES}`;
}

const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

const timeOfDay = z
  .string({ error: QUIET_HOURS_TIME_MESSAGE })
  .regex(TIME_OF_DAY, { error: QUIET_HOURS_TIME_MESSAGE });

/**
 * A daily window in local time (R-FEW-07, R-FEW-08). An all-empty value counts as none
 * (R-FEW-17); parseCall drops it before this schema sees it.
 */
export const QuietHoursSchema = z
  .strictObject(
    {
      from: timeOfDay,
      to: timeOfDay,
      tz: z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? `quiet_hours tz is required: an IANA time zone ${TZ_EXAMPLES}`
              : quietHoursTzMessage(issue.input),
        })
        .refine(isIanaTimeZone, { error: (issue) => quietHoursTzMessage(issue.input) }),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `quiet_hours takes from, to and tz only (got ${issue.keys.join(", ")})`
          : `quiet_hours must be an object { "from": "HH:MM", "to": "HH:MM", "tz": "Area/City" } (got ${describeValue(issue.input)})`,
    },
  )
  .superRefine((window, ctx) => {
    if (window.from === window.to) {
      ctx.addIssue({ code: "custom", message: QUIET_HOURS_DIFFER_MESSAGE });
    }
  })
  .meta({
    description:
      'Daily window in local time during which non-urgent events wait and arrive together at its end: { "from": "23:00", "to": "06:00", "tz": "Europe/Berlin" }. May span midnight.',
  });
export type QuietHours = z.infer<typeof QuietHoursSchema>;
