import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { relayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { GroupRefSchema, SessionRefSchema, TaskSummarySchema } from "../results/common";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { SessionScopeSchema, SessionStateSchema } from "../vocabulary";

export const ListSessionsArgsSchema = actionArgs("list_sessions", {
  relay: relayArg,
  scope: SessionScopeSchema.meta({
    description: 'Which sessions: "active" (not archived, the default), "archived" or "all".',
  }).default("active"),
});
export type ListSessionsArgs = z.infer<typeof ListSessionsArgsSchema>;

/** DESIGN GAP-06; R-LSES-01 … R-LSES-07. */
export const SessionListEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  provider: z.string(),
  model: z.string(),
  state: SessionStateSchema,
  cwd: z.string().nullable(),
  /** A repository session's repository and branch (R-CRE-07/08). */
  repo: z.string().optional(),
  branch: z.string().optional(),
  lastActivityAt: IsoDateTimeSchema,
  messageCount: z.number().int().min(0),
  tasks: z.array(TaskSummarySchema),
  group: GroupRefSchema.optional(),
  /** The conversation whose agent started it (R-UI-03). */
  viaAgent: SessionRefSchema.optional(),
  mayCreateSessions: z.boolean().optional(),
  archived: z.boolean().optional(),
});
export type SessionListEntry = z.infer<typeof SessionListEntrySchema>;

export const ListSessionsResultSchema = okResultSchema({
  scope: SessionScopeSchema,
  sessions: z.array(SessionListEntrySchema),
});
export type ListSessionsResult = z.infer<typeof ListSessionsResultSchema>;
