import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { relayArg, sessionArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";

export const ArchiveArgsSchema = actionArgs("archive", { relay: relayArg, session: sessionArg });
export type ArchiveArgs = z.infer<typeof ArchiveArgsSchema>;

const count = z.number().int().min(0);

/** R-ARC-03: archiving ends the subscriptions, schedules and questions tied to the session. */
export const ArchiveResultSchema = okResultSchema({
  session: z.string(),
  archived: z.literal(true),
  alreadyArchived: z.boolean().optional(),
  endedSubscriptions: count.optional(),
  endedSchedules: count.optional(),
  endedQuestions: count.optional(),
});
export type ArchiveResult = z.infer<typeof ArchiveResultSchema>;
