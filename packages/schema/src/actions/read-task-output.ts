import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { idArg, relayArg, sessionArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";
import { TestCountsSchema } from "../results/common";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { TaskStatusSchema } from "../vocabulary";

export const ReadTaskOutputArgsSchema = actionArgs("read_task_output", {
  relay: relayArg,
  session: sessionArg,
  task_id: idArg("Id of the background task (taskId in read_session's tasks)."),
  lines: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.linesMax)
    .meta({
      description: `How many lines from the end of the output (default ${LIMITS.linesDefault}, at most ${LIMITS.linesMax}).`,
    })
    .default(LIMITS.linesDefault),
});
export type ReadTaskOutputArgs = z.infer<typeof ReadTaskOutputArgsSchema>;

/** R-RTO-03: minutes since the last output, relative to the relay's quiet setting. */
export const TaskStallSchema = z.object({
  minutes: z.number().int().min(0),
  since: IsoDateTimeSchema,
  quiet: z.boolean(),
  quietAfterMinutes: z.number().int().min(0),
});
export type TaskStall = z.infer<typeof TaskStallSchema>;

/** R-RTO-03, R-RTO-06. `tail` is plain text, a repeated line marked `[×N]`, credentials masked. */
export const ReadTaskOutputResultSchema = okResultSchema({
  session: z.string(),
  task: z.object({
    id: z.string(),
    description: z.string(),
    type: z.string(),
    startedAt: IsoDateTimeSchema,
    status: TaskStatusSchema,
    exitCode: z.number().int().nullable(),
  }),
  tail: z.array(z.string()),
  truncated: z.boolean().optional(),
  stall: TaskStallSchema.optional(),
  counts: TestCountsSchema.optional(),
});
export type ReadTaskOutputResult = z.infer<typeof ReadTaskOutputResultSchema>;
