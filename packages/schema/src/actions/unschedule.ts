import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { idArg, thisRelayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";

/** R-UNSCH-01: a schedule that fires in this conversation or that it created. */
export const UnscheduleArgsSchema = actionArgs("unschedule", {
  relay: thisRelayArg,
  schedule_id: idArg("Id of the schedule to end (schedule_id of schedule, id in list_schedules)."),
});
export type UnscheduleArgs = z.infer<typeof UnscheduleArgsSchema>;

export const UnscheduleResultSchema = okResultSchema({ schedule_id: z.string(), ended: z.literal(true) });
export type UnscheduleResult = z.infer<typeof UnscheduleResultSchema>;
