import { z } from "zod";
import { IsoDateTimeSchema } from "./time/iso-date-time";
import { EndedTurnStatusSchema, QuestionKindSchema, SessionStateSchema } from "./vocabulary";

/** Every event a watcher can receive (R-EVT-07, DESIGN GAP-13/14). */
export const EventKindSchema = z.enum([
  "turn_end",
  "error",
  "question_asked",
  "question_answered",
  "subagent_finished",
  "task_started",
  "task_finished",
  "task_failed",
  "stalled",
  "all_idle",
  "heartbeat",
  "link_lost",
  "link_restored",
]);
export type EventKind = z.infer<typeof EventKindSchema>;

/**
 * The events `subscribe` may name. The heartbeat comes from `heartbeat_minutes`, and the link
 * lines frame a replay; neither is something a session does, so neither is named in `events`.
 */
export const SubscribableEventSchema = EventKindSchema.exclude(["heartbeat", "link_lost", "link_restored"]);
export type SubscribableEvent = z.infer<typeof SubscribableEventSchema>;

/** What a subscription that names no `events` receives (R-EVT-01). */
export const DEFAULT_EVENTS = [
  "question_asked",
  "error",
  "turn_end",
  "subagent_finished",
  "task_failed",
  "stalled",
  "all_idle",
] as const satisfies readonly SubscribableEvent[];

/** Never held by digests, quiet hours or the hourly cap (R-FEW-02, R-DLV-06). */
export const URGENT_EVENTS = [
  "question_asked",
  "question_answered",
  "error",
] as const satisfies readonly EventKind[];

/** Length of the reply excerpt a turn_end carries (DESIGN GAP-13). */
export const TURN_END_TEXT_MAX = 200;

const eventBase = {
  /** Unique per relay; with the subscription id it is the delivery's idempotency key. */
  id: z.string().min(1),
  at: IsoDateTimeSchema,
  /** Set when the event comes from a paired relay: that relay's name (R-PAIR-03). */
  relay: z.string().optional(),
  /** A paired relay's event fetched after the link was lost: shown in one `replayed` line (R-PAIR-04). */
  replayed: z.literal(true).optional(),
  /** Absent for question_answered, which needs no subscription (R-QANS-02). */
  subscription_id: z.string().optional(),
  session: z.string(),
  title: z.string(),
};

// all_idle, heartbeat and the link lines concern a whole subscription: session and title then
// name the session that triggered the event, or are null.
const subscriptionWide = { session: z.string().nullable(), title: z.string().nullable() };

const taskFields = { task_id: z.string(), description: z.string() };

export const TurnEndEventSchema = z.object({
  ...eventBase,
  kind: z.literal("turn_end"),
  status: EndedTurnStatusSchema,
  turn_id: z.string().optional(),
  message_id: z.string().optional(),
  text: z.string().max(TURN_END_TEXT_MAX),
  /** The conversation of this relay whose agent prompted the turn (the no-echo rule, R-ECHO-01). */
  prompted_by: z.string().optional(),
});
export const ErrorEventSchema = z.object({ ...eventBase, kind: z.literal("error"), message: z.string() });
export const QuestionAskedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("question_asked"),
  question_id: z.string(),
  questionKind: QuestionKindSchema,
  text: z.string(),
  options: z.array(z.string()).optional(),
});
/** R-QANS-01: the answer, the choice picked, whether it was dismissed, and where it was answered. */
export const QuestionAnsweredEventSchema = z.object({
  ...eventBase,
  kind: z.literal("question_answered"),
  question_id: z.string(),
  questionKind: QuestionKindSchema,
  text: z.string(),
  answer: z.string().nullable(),
  choice: z.string().nullable(),
  dismissed: z.boolean(),
  via: z.string(),
  /**
   * A non-blocking question's asking conversation on this relay: it receives the event with no
   * subscription, as does the session concerned (R-QANS-02, R-QCHK-04).
   */
  asked_by: z.string().optional(),
});
export const SubagentFinishedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("subagent_finished"),
  ...taskFields,
  exitCode: z.number().int().nullable(),
});
export const TaskStartedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("task_started"),
  ...taskFields,
  type: z.string(),
});
export const TaskFinishedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("task_finished"),
  ...taskFields,
  exitCode: z.number().int().nullable(),
});
export const TaskFailedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("task_failed"),
  ...taskFields,
  exitCode: z.number().int().nullable(),
});
/** A turn or task produced no output for the subscription's stalled_minutes (DESIGN GAP-13). */
export const StalledEventSchema = z.object({
  ...eventBase,
  kind: z.literal("stalled"),
  minutes: z.number().int().min(1),
  task_id: z.string().optional(),
  description: z.string().optional(),
});
export const AllIdleEventSchema = z.object({
  ...eventBase,
  ...subscriptionWide,
  kind: z.literal("all_idle"),
  watchedCount: z.number().int().min(0),
});
export const HeartbeatEventSchema = z.object({
  ...eventBase,
  ...subscriptionWide,
  kind: z.literal("heartbeat"),
  sessions: z.array(z.object({ id: z.string(), title: z.string(), state: SessionStateSchema })),
});
export const LinkLostEventSchema = z.object({
  ...eventBase,
  ...subscriptionWide,
  kind: z.literal("link_lost"),
});
/** R-PAIR-04, R-PAIR-07: how many events were replayed, and how many of them digests still hold. */
export const LinkRestoredEventSchema = z.object({
  ...eventBase,
  ...subscriptionWide,
  kind: z.literal("link_restored"),
  replayed: z.number().int().min(0),
  held: z.number().int().min(0),
});

/**
 * What the outbox also records for the owner's event stream (DESIGN §4 `GET /v1/owner/events`)
 * and later consumers, but no subscription names: a turn starting, a session archived or deleted.
 */
export const TurnStartedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("turn_started"),
  turn_id: z.string(),
});
export const SessionArchivedEventSchema = z.object({ ...eventBase, kind: z.literal("session_archived") });
export const SessionDeletedEventSchema = z.object({ ...eventBase, kind: z.literal("session_deleted") });
/**
 * An approval card raised for the owner in a conversation (`session`), and the owner's answer:
 * what the console's Inbox shows the moment it happens, without polling.
 */
export const CardRaisedEventSchema = z.object({
  ...eventBase,
  kind: z.literal("card_raised"),
  card_id: z.string(),
  action: z.string(),
  target_relay: z.string(),
});
export const CardAnsweredEventSchema = z.object({
  ...eventBase,
  kind: z.literal("card_answered"),
  card_id: z.string(),
  status: z.enum(["allowed", "denied"]),
});

export const RelayEventSchema = z.discriminatedUnion("kind", [
  TurnEndEventSchema,
  ErrorEventSchema,
  QuestionAskedEventSchema,
  QuestionAnsweredEventSchema,
  SubagentFinishedEventSchema,
  TaskStartedEventSchema,
  TaskFinishedEventSchema,
  TaskFailedEventSchema,
  StalledEventSchema,
  AllIdleEventSchema,
  HeartbeatEventSchema,
  LinkLostEventSchema,
  LinkRestoredEventSchema,
]);
export type RelayEvent = z.infer<typeof RelayEventSchema>;

/** Every row of the outbox: the events watchers receive and the lifecycle records beside them. */
export const OutboxEventSchema = z.discriminatedUnion("kind", [
  ...RelayEventSchema.options,
  TurnStartedEventSchema,
  SessionArchivedEventSchema,
  SessionDeletedEventSchema,
  CardRaisedEventSchema,
  CardAnsweredEventSchema,
]);
export type OutboxEvent = z.infer<typeof OutboxEventSchema>;
/** The kinds of the outbox's rows: the events, then the lifecycle records. */
export const OutboxEventKindSchema = z.enum([
  ...EventKindSchema.options,
  "turn_started",
  "session_archived",
  "session_deleted",
  "card_raised",
  "card_answered",
]);
export type OutboxEventKind = z.infer<typeof OutboxEventKindSchema>;
export type TurnStartedEvent = z.infer<typeof TurnStartedEventSchema>;
export type TurnEndEvent = z.infer<typeof TurnEndEventSchema>;
export type ErrorEvent = z.infer<typeof ErrorEventSchema>;
export type QuestionAskedEvent = z.infer<typeof QuestionAskedEventSchema>;
export type QuestionAnsweredEvent = z.infer<typeof QuestionAnsweredEventSchema>;
export type SubagentFinishedEvent = z.infer<typeof SubagentFinishedEventSchema>;
export type TaskStartedEvent = z.infer<typeof TaskStartedEventSchema>;
export type TaskFinishedEvent = z.infer<typeof TaskFinishedEventSchema>;
export type TaskFailedEvent = z.infer<typeof TaskFailedEventSchema>;
export type StalledEvent = z.infer<typeof StalledEventSchema>;
export type AllIdleEvent = z.infer<typeof AllIdleEventSchema>;
export type HeartbeatEvent = z.infer<typeof HeartbeatEventSchema>;
export type LinkLostEvent = z.infer<typeof LinkLostEventSchema>;
export type LinkRestoredEvent = z.infer<typeof LinkRestoredEventSchema>;
