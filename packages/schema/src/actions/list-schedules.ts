import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { SessionRefSchema } from "../results/common";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { ScheduleEndReasonSchema } from "../vocabulary";

export const ListSchedulesArgsSchema = actionArgs("list_schedules", { relay: thisRelayArg });
export type ListSchedulesArgs = z.infer<typeof ListSchedulesArgsSchema>;

/** R-LSCH-01, R-LSCH-02, R-SCH-13, R-SCH-18. */
export const ScheduleEntrySchema = z.object({
  id: z.string(),
  session: SessionRefSchema,
  /** The conversation that created it, when not the one it fires in. */
  setBy: SessionRefSchema.optional(),
  title: z.string(),
  /** The beginning of the text. */
  text: z.string(),
  at: IsoDateTimeSchema.nullable(),
  everyMinutes: z.number().int().min(1).nullable(),
  once: z.boolean(),
  nextFireAt: IsoDateTimeSchema.nullable(),
  lastFiredAt: IsoDateTimeSchema.nullable(),
  firedCount: z.number().int().min(0),
  skippedCount: z.number().int().min(1).optional(),
  heldForApproval: z.boolean().optional(),
  heldSince: IsoDateTimeSchema.optional(),
  endReason: ScheduleEndReasonSchema.optional(),
  endedAt: IsoDateTimeSchema.optional(),
});
export type ScheduleEntry = z.infer<typeof ScheduleEntrySchema>;

export const ListSchedulesResultSchema = okResultSchema({ schedules: z.array(ScheduleEntrySchema) });
export type ListSchedulesResult = z.infer<typeof ListSchedulesResultSchema>;
