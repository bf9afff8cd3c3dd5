import type { GroupRole, MessageRole, SessionMode, SessionState, TokenKind, TurnStatus } from "@oar/engine";
import type { CardKind, CardStatus, UnlockHow } from "@oar/permissions";
import { valuesOf } from "./columns";

// Allowed values of the text columns. Those with a port type are checked against it at compile time.
export const SESSION_MODES = valuesOf<SessionMode>()(["agent", "ask", "plan"]);
export const SESSION_STATES = valuesOf<SessionState>()(["running_turn", "background_only", "idle"]);
export const GROUP_ROLES = valuesOf<GroupRole>()(["head", "member"]);
export const MESSAGE_ROLES = valuesOf<MessageRole>()(["user", "assistant", "event", "system"]);
export const TURN_STATUSES = valuesOf<TurnStatus>()(["queued", "running", "done", "error", "stopped"]);
export const TOKEN_KINDS = valuesOf<TokenKind>()(["owner", "agent", "peer"]);
export const CARD_KINDS = valuesOf<CardKind>()([
  "first_create_session",
  "first_subscribe",
  "write_in_mode",
  "update_other_session",
  "transfer_subscriptions",
  "anti_loop",
]);
export const CARD_STATUSES = valuesOf<CardStatus>()(["pending", "allowed", "denied", "expired"]);
export const UNLOCK_HOWS = valuesOf<UnlockHow>()(["mention", "agent"]);

export type TaskKind = "shell" | "subagent" | "monitor";
export const TASK_KINDS = valuesOf<TaskKind>()(["shell", "subagent", "monitor"]);
export type TaskStatus = "running" | "done" | "failed" | "stopped";
export const TASK_STATUSES = valuesOf<TaskStatus>()(["running", "done", "failed", "stopped"]);

/** `ask_user` blocks its turn (a question card); `ask` is the non-blocking Inbox question (§34). */
export type QuestionKind = "ask_user" | "ask";
export const QUESTION_KINDS = valuesOf<QuestionKind>()(["ask_user", "ask"]);
export type QuestionStatus = "pending" | "answered" | "dismissed" | "withdrawn" | "ended";
export const QUESTION_STATUSES = valuesOf<QuestionStatus>()([
  "pending",
  "answered",
  "dismissed",
  "withdrawn",
  "ended",
]);

export type SubscriptionScope = "all" | "list";
export const SUBSCRIPTION_SCOPES = valuesOf<SubscriptionScope>()(["all", "list"]);
export type SubscriptionEndReason =
  | "unsubscribed"
  | "once"
  | "archived"
  | "unpaired"
  | "transferred"
  | "watcher_archived";
export const SUBSCRIPTION_END_REASONS = valuesOf<SubscriptionEndReason>()([
  "unsubscribed",
  "once",
  "archived",
  "unpaired",
  "transferred",
  "watcher_archived",
]);
/** An outbox row: waiting its turn, held by a digest or quiet hours, folded into a grouped message, sent, or dropped. */
export type DeliveryStatus = "pending" | "held" | "grouped" | "sent" | "dropped";
export const DELIVERY_STATUSES = valuesOf<DeliveryStatus>()([
  "pending",
  "held",
  "grouped",
  "sent",
  "dropped",
]);
export type DigestReason = "digest" | "quiet_hours" | "hourly_cap";
export const DIGEST_REASONS = valuesOf<DigestReason>()(["digest", "quiet_hours", "hourly_cap"]);
export type GroupedMessageStatus = "open" | "sent";
export const GROUPED_MESSAGE_STATUSES = valuesOf<GroupedMessageStatus>()(["open", "sent"]);

export type ScheduleEndReason = "unscheduled" | "fired" | "archived" | "deleted";
export const SCHEDULE_END_REASONS = valuesOf<ScheduleEndReason>()([
  "unscheduled",
  "fired",
  "archived",
  "deleted",
]);
export type FiringStatus = "fired" | "skipped" | "held";
export const FIRING_STATUSES = valuesOf<FiringStatus>()(["fired", "skipped", "held"]);

/** Agents-may levels of a pairing (GAP-03). */
export type PeerLevel = "none" | "read" | "prompt" | "full";
export const PEER_LEVELS = valuesOf<PeerLevel>()(["none", "read", "prompt", "full"]);
