import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { relayArg, sessionArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";
import { GroupRefSchema, PendingQuestionSchema, TaskSummarySchema } from "../results/common";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { GroupRoleSchema, SessionStateSchema } from "../vocabulary";

export const ReadSessionArgsSchema = actionArgs("read_session", {
  relay: relayArg,
  session: sessionArg,
  last: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.lastMax)
    .meta({ description: `How many of the most recent messages to read (default ${LIMITS.lastDefault}).` })
    .default(LIMITS.lastDefault),
});
export type ReadSessionArgs = z.infer<typeof ReadSessionArgsSchema>;

/**
 * A message of the session. `relay` marks automated messages (relay events, schedules); a prompt
 * from another agent is a `user` message whose `from` names that agent (R-HOP-03).
 */
export const SessionMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant", "relay"]),
  text: z.string(),
  at: IsoDateTimeSchema,
  model: z.string().optional(),
  from: z.string().optional(),
});
export type SessionMessage = z.infer<typeof SessionMessageSchema>;

/** R-RSES-03: the other members of the session's group. */
export const GroupMemberSchema = z.object({
  id: z.string(),
  title: z.string(),
  role: GroupRoleSchema,
  state: SessionStateSchema,
  archived: z.boolean().optional(),
});
export type GroupMember = z.infer<typeof GroupMemberSchema>;

/** R-RSES-01 … R-RSES-07. */
export const ReadSessionResultSchema = okResultSchema({
  session: z.string(),
  title: z.string(),
  provider: z.string(),
  model: z.string(),
  state: SessionStateSchema,
  cwd: z.string().nullable(),
  /** A repository session's repository and branch (R-CRE-07/08). */
  repo: z.string().optional(),
  branch: z.string().optional(),
  archived: z.boolean().optional(),
  /** A reply still being written, or null. */
  inFlight: z.object({ text: z.string(), message_id: z.string().optional() }).nullable(),
  pendingQuestions: z.array(PendingQuestionSchema),
  messages: z.array(SessionMessageSchema),
  tasks: z.array(TaskSummarySchema),
  group: GroupRefSchema.extend({
    members: z.array(GroupMemberSchema).max(LIMITS.groupMembersMax),
  }).optional(),
  mayCreateSessions: z.boolean().optional(),
});
export type ReadSessionResult = z.infer<typeof ReadSessionResultSchema>;
