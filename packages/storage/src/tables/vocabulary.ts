import type { ScheduleFiring } from "@oar/engine";
import type { CardKind, CardStatus, UnlockHow } from "@oar/permissions";
import type { DeliveryReason, DeliveryStatus, WakeupRecord } from "@oar/scheduler";
import {
  GroupRoleSchema,
  MessageRoleSchema,
  ModeSchema,
  OutboxEventKindSchema,
  PermissionLevelSchema,
  QuestionKindSchema,
  QuestionStatusSchema,
  ScheduleEndReasonSchema,
  SessionStateSchema,
  SubscriptionEndReasonSchema,
  SubscriptionScopeSchema,
  TaskStatusSchema,
  TokenKindSchema,
  TurnStatusSchema,
} from "@oar/schema";
import { valuesOf } from "./columns";

// Allowed values of the text columns. The wire vocabulary is @oar/schema's, so a status or mode
// is defined once (STYLE "One vocabulary"); the engines' own unions are checked at compile time.
export const SESSION_MODES = ModeSchema.options;
export const SESSION_STATES = SessionStateSchema.options;
export const GROUP_ROLES = GroupRoleSchema.options;
export const MESSAGE_ROLES = MessageRoleSchema.options;
export const TURN_STATUSES = TurnStatusSchema.options;
export const TOKEN_KINDS = TokenKindSchema.options;
export const QUESTION_KINDS = QuestionKindSchema.options;
export const QUESTION_STATUSES = QuestionStatusSchema.options;
export const TASK_STATUSES = TaskStatusSchema.options;
export const SUBSCRIPTION_SCOPES = SubscriptionScopeSchema.options;
export const SUBSCRIPTION_END_REASONS = SubscriptionEndReasonSchema.options;
export const SCHEDULE_END_REASONS = ScheduleEndReasonSchema.options;
/** Agents-may levels of a pairing (GAP-03). */
export const PEER_LEVELS = PermissionLevelSchema.options;

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

export const OUTBOX_EVENT_KINDS = OutboxEventKindSchema.options;
export const DELIVERY_REASONS = valuesOf<DeliveryReason>()(["window", "urgent", "digest", "quiet", "cap"]);
export const DELIVERY_STATUSES = valuesOf<DeliveryStatus>()(["pending", "sent", "dropped"]);
export const WAKEUP_KINDS = valuesOf<WakeupRecord["kind"]>()(["batch", "urgent", "cap"]);

// A slot is recorded fired or skipped; a hold is the schedule's state (held_since), not a slot's.
export type FiringStatus = ScheduleFiring["outcome"];
export const FIRING_STATUSES = valuesOf<FiringStatus>()(["fired", "skipped"]);
