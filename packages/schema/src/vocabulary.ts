import { z } from "zod";

/** R-LSES-02. */
export const SessionStateSchema = z.enum(["running_turn", "background_only", "idle"]);
export type SessionState = z.infer<typeof SessionStateSchema>;

/** A turn's own status: waiting in its session's queue, running, or how it ended. */
export const TurnStatusSchema = z.enum(["queued", "running", "done", "error", "stopped"]);
export type TurnStatus = z.infer<typeof TurnStatusSchema>;
export const EndedTurnStatusSchema = TurnStatusSchema.exclude(["queued", "running"]);
export type EndedTurnStatus = z.infer<typeof EndedTurnStatusSchema>;

/**
 * Where a prompt's turn stands in send/create_session/wait results (DESIGN GAP-10): its status,
 * or `waiting` while it waits on a question card.
 */
export const TurnWaitStatusSchema = z.enum(["done", "running", "queued", "waiting", "error", "stopped"]);
export type TurnWaitStatus = z.infer<typeof TurnWaitStatusSchema>;

/**
 * Who wrote a message: the user (or an agent's prompt), the session's agent, the relay's event
 * messages to a watcher (R-DLV-01: never shown as the user's), the relay itself.
 */
export const MessageRoleSchema = z.enum(["user", "assistant", "relay", "system"]);
export type MessageRole = z.infer<typeof MessageRoleSchema>;

/**
 * The three kinds of bearer token, never interchangeable (DESIGN §7): the owner's, a session's
 * agent token, and an invite another relay calls this one's peer surface with.
 */
export const TokenKindSchema = z.enum(["owner", "agent", "invite"]);
export type TokenKind = z.infer<typeof TokenKindSchema>;

/** The relay's modes; `ask` and `plan` put every write action behind a card (R-UI-01). */
export const ModeSchema = z.enum(["agent", "ask", "plan"]);
export type Mode = z.infer<typeof ModeSchema>;

/** The Agents may level of a pairing, lowest first (DESIGN GAP-03). */
export const PermissionLevelSchema = z.enum(["none", "read", "prompt", "full"]);
export type PermissionLevel = z.infer<typeof PermissionLevelSchema>;

/** Question statuses (DESIGN GAP-19); a blocking question card is only ever pending, answered or ended. */
export const QuestionStatusSchema = z.enum(["pending", "answered", "dismissed", "withdrawn", "ended"]);
export type QuestionStatus = z.infer<typeof QuestionStatusSchema>;

/** `ask` is a non-blocking question, `ask_user` a card the session waits on (R-RSES-02). */
export const QuestionKindSchema = z.enum(["ask", "ask_user"]);
export type QuestionKind = z.infer<typeof QuestionKindSchema>;

/** Why a subscription ended (DESIGN GAP-16). */
export const SubscriptionEndReasonSchema = z.enum([
  "unsubscribed",
  "once",
  "archived",
  "unpaired",
  "transferred",
  "watcher_archived",
]);
export type SubscriptionEndReason = z.infer<typeof SubscriptionEndReasonSchema>;

/** Why a schedule ended (R-LSCH-01). */
export const ScheduleEndReasonSchema = z.enum(["unscheduled", "fired", "archived", "deleted"]);
export type ScheduleEndReason = z.infer<typeof ScheduleEndReasonSchema>;

/** R-LSES-04. */
export const GroupRoleSchema = z.enum(["head", "member"]);
export type GroupRole = z.infer<typeof GroupRoleSchema>;

/** A background task's status; `running` is the spec's, the ended ones follow the task events (GAP-13). */
export const TaskStatusSchema = z.enum(["running", "finished", "failed", "stopped"]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** `list_sessions` scope (DESIGN GAP-06). */
export const SessionScopeSchema = z.enum(["active", "archived", "all"]);
export type SessionScope = z.infer<typeof SessionScopeSchema>;

/** `scope` of a subscription in results: all sessions or a list (DESIGN GAP-16). */
export const SubscriptionScopeSchema = z.enum(["all", "list"]);
export type SubscriptionScope = z.infer<typeof SubscriptionScopeSchema>;
