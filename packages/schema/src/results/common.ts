import { z } from "zod";
import { LIMITS } from "../limits";
import { IsoDateTimeSchema } from "../time/iso-date-time";
import { GroupRoleSchema, QuestionKindSchema, TaskStatusSchema } from "../vocabulary";

// Building blocks shared by several results, events and bodies.

const count = z.number().int().min(0);

/** A session named in a result: id and title. */
export const SessionRefSchema = z.object({ id: z.string(), title: z.string() });
export type SessionRef = z.infer<typeof SessionRefSchema>;

/** A session's place in its group, as list_sessions shows it (R-LSES-04). */
export const GroupRefSchema = z.object({ id: z.string(), name: z.string(), role: GroupRoleSchema });
export type GroupRef = z.infer<typeof GroupRefSchema>;

/** A group as relay_info and UNKNOWN_GROUP errors list it (R-RINFO-03, R-CGRP-07). */
export const GroupInfoSchema = z.object({ id: z.string(), name: z.string(), memberCount: count });
export type GroupInfo = z.infer<typeof GroupInfoSchema>;

/** Counts of a test run found in a task's output (R-RTO-03). */
export const TestCountsSchema = z.object({
  runner: z.string(),
  passed: count,
  failed: count,
  skipped: count,
  final: z.boolean(),
});
export type TestCounts = z.infer<typeof TestCountsSchema>;

/** Health of a command whose output goes to a file (R-RSES-05). */
export const TaskHealthSchema = z.object({
  minutesSinceOutput: count,
  quiet: z.boolean(),
  quietAfterMinutes: count,
  counts: TestCountsSchema.optional(),
});
export type TaskHealth = z.infer<typeof TaskHealthSchema>;

/** A background task (subagent, shell command, monitor) of a session (R-LSES-03, R-RSES-05). */
export const TaskSummarySchema = z.object({
  taskId: z.string(),
  description: z.string(),
  type: z.string(),
  status: TaskStatusSchema,
  startedAt: IsoDateTimeSchema,
  exitCode: z.number().int().nullable(),
  output: z.boolean(),
  health: TaskHealthSchema.optional(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** A question waiting for an answer in a session (R-RSES-01, R-RSES-02). */
export const PendingQuestionSchema = z.object({
  question_id: z.string(),
  kind: QuestionKindSchema,
  text: z.string(),
  options: z.array(z.string()).optional(),
  recommendation: z.string().optional(),
  askedAt: IsoDateTimeSchema,
});
export type PendingQuestion = z.infer<typeof PendingQuestionSchema>;

/** The other session's reply, or its text so far while the turn runs (R-SEND-02, GAP-10). */
export const ReplySchema = z.object({ text: z.string(), model: z.string() });
export type Reply = z.infer<typeof ReplySchema>;

/** The groups an UNKNOWN_GROUP error may list (R-CGRP-07). */
export const ErrorGroupsSchema = z.array(GroupInfoSchema).max(LIMITS.errorGroupsMax);
