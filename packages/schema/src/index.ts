// The public API of @oar/schema: explicit named exports only (STYLE §15).

export { type ActionMeta, actionMeta, isWriteCall } from "./actions/action-meta";
export { ACTIONS, type Action, ActionSchema } from "./actions/action-names";
export {
  type AnswerQuestionArgs,
  AnswerQuestionArgsSchema,
  type AnswerQuestionResult,
  AnswerQuestionResultSchema,
} from "./actions/answer-question";
export {
  type ArchiveArgs,
  ArchiveArgsSchema,
  type ArchiveResult,
  ArchiveResultSchema,
} from "./actions/archive";
export { type AskArgs, AskArgsSchema, type AskResult, AskResultSchema } from "./actions/ask";
export {
  type CreateSessionArgs,
  CreateSessionArgsSchema,
  type CreateSessionResult,
  CreateSessionResultSchema,
} from "./actions/create-session";
export {
  type ListQuestionsArgs,
  ListQuestionsArgsSchema,
  type ListQuestionsResult,
  ListQuestionsResultSchema,
  type QuestionEntry,
  QuestionEntrySchema,
} from "./actions/list-questions";
export {
  type ListRelaysArgs,
  ListRelaysArgsSchema,
  type ListRelaysResult,
  ListRelaysResultSchema,
  type RelayListEntry,
  RelayListEntrySchema,
} from "./actions/list-relays";
export {
  type ListSchedulesArgs,
  ListSchedulesArgsSchema,
  type ListSchedulesResult,
  ListSchedulesResultSchema,
  type ScheduleEntry,
  ScheduleEntrySchema,
} from "./actions/list-schedules";
export {
  type ListSessionsArgs,
  ListSessionsArgsSchema,
  type ListSessionsResult,
  ListSessionsResultSchema,
  type SessionListEntry,
  SessionListEntrySchema,
} from "./actions/list-sessions";
export {
  type ListSubscriptionsArgs,
  ListSubscriptionsArgsSchema,
  type ListSubscriptionsResult,
  ListSubscriptionsResultSchema,
} from "./actions/list-subscriptions";
export {
  type GroupMember,
  GroupMemberSchema,
  type ReadSessionArgs,
  ReadSessionArgsSchema,
  type ReadSessionResult,
  ReadSessionResultSchema,
  type SessionMessage,
  SessionMessageSchema,
} from "./actions/read-session";
export {
  type ReadTaskOutputArgs,
  ReadTaskOutputArgsSchema,
  type ReadTaskOutputResult,
  ReadTaskOutputResultSchema,
  type TaskStall,
  TaskStallSchema,
} from "./actions/read-task-output";
export {
  actionArgsSchemas,
  actionArgumentNames,
  actionResultSchemas,
  type CallOf,
  type RelayToolCall,
  type RelayToolCallInput,
  RelayToolCallSchema,
} from "./actions/registry";
export {
  type ProviderInfo,
  ProviderInfoSchema,
  type RelayInfoArgs,
  RelayInfoArgsSchema,
  type RelayInfoResult,
  RelayInfoResultSchema,
} from "./actions/relay-info";
export {
  type Schedule,
  type ScheduleArgs,
  ScheduleArgsSchema,
  type ScheduleResult,
  ScheduleResultSchema,
  ScheduleSchema,
} from "./actions/schedule";
export { type SendArgs, SendArgsSchema, type SendResult, SendResultSchema } from "./actions/send";
export { type StopArgs, StopArgsSchema, type StopResult, StopResultSchema } from "./actions/stop";
export {
  EXCLUDE_NEEDS_ALL_MESSAGE,
  type SubscribeArgs,
  SubscribeArgsSchema,
  type SubscribeResult,
  SubscribeResultSchema,
} from "./actions/subscribe";
export {
  type TransferSubscriptionsArgs,
  TransferSubscriptionsArgsSchema,
  type TransferSubscriptionsResult,
  TransferSubscriptionsResultSchema,
} from "./actions/transfer-subscriptions";
export {
  type UnscheduleArgs,
  UnscheduleArgsSchema,
  type UnscheduleResult,
  UnscheduleResultSchema,
} from "./actions/unschedule";
export {
  type UnsubscribeArgs,
  UnsubscribeArgsSchema,
  type UnsubscribeResult,
  UnsubscribeResultSchema,
} from "./actions/unsubscribe";
export {
  LEAVE_GROUP,
  type SessionSettings,
  SessionSettingsSchema,
  UPDATE_SESSION_SETTINGS,
  type UpdateSessionArgs,
  UpdateSessionArgsSchema,
  type UpdateSessionResult,
  UpdateSessionResultSchema,
  type UpdateSessionSetting,
  UpdateSessionSettingSchema,
} from "./actions/update-session";
export {
  type ProviderUsage,
  ProviderUsageSchema,
  type UsageArgs,
  UsageArgsSchema,
  type UsageResult,
  UsageResultSchema,
  type UsageStatus,
  UsageStatusSchema,
} from "./actions/usage";
export { type WaitArgs, WaitArgsSchema, type WaitResult, WaitResultSchema } from "./actions/wait";
export {
  type WithdrawArgs,
  WithdrawArgsSchema,
  type WithdrawResult,
  WithdrawResultSchema,
} from "./actions/withdraw";
export {
  QUIET_HOURS_DIFFER_MESSAGE,
  QUIET_HOURS_TIME_MESSAGE,
  type QuietHours,
  QuietHoursSchema,
} from "./args/quiet-hours";
export { type ParsedCall, parseCall } from "./call/parse-call";
export { STRICT_ACTIONS } from "./call/unknown-arguments";
export { type ErrorExtra, errorEnvelope, type OkHead, okEnvelope } from "./envelope/builders";
export {
  type ErrorEnvelope,
  ErrorEnvelopeSchema,
  type OkEnvelopeBase,
  OkEnvelopeBaseSchema,
  type RelayToolResultEnvelope,
  RelayToolResultEnvelopeSchema,
} from "./envelope/envelopes";
export {
  type ErrorCode,
  ErrorCodeSchema,
  errorCodeMeanings,
  type KnownRemoteCode,
  KnownRemoteCodeSchema,
} from "./errors/error-codes";
export {
  type AllIdleEvent,
  AllIdleEventSchema,
  DEFAULT_EVENTS,
  type ErrorEvent,
  ErrorEventSchema,
  type EventKind,
  EventKindSchema,
  type HeartbeatEvent,
  HeartbeatEventSchema,
  type LinkLostEvent,
  LinkLostEventSchema,
  type LinkRestoredEvent,
  LinkRestoredEventSchema,
  type OutboxEvent,
  type OutboxEventKind,
  OutboxEventKindSchema,
  OutboxEventSchema,
  type QuestionAnsweredEvent,
  QuestionAnsweredEventSchema,
  type QuestionAskedEvent,
  QuestionAskedEventSchema,
  type RelayEvent,
  RelayEventSchema,
  SessionArchivedEventSchema,
  SessionDeletedEventSchema,
  type StalledEvent,
  StalledEventSchema,
  type SubagentFinishedEvent,
  SubagentFinishedEventSchema,
  type SubscribableEvent,
  SubscribableEventSchema,
  type TaskFailedEvent,
  TaskFailedEventSchema,
  type TaskFinishedEvent,
  TaskFinishedEventSchema,
  type TaskStartedEvent,
  TaskStartedEventSchema,
  TURN_END_TEXT_MAX,
  type TurnEndEvent,
  TurnEndEventSchema,
  type TurnStartedEvent,
  TurnStartedEventSchema,
  URGENT_EVENTS,
} from "./events";
export {
  type AuthErrorBody,
  AuthErrorBodySchema,
  type Healthz,
  HealthzSchema,
  type HealthzUnavailable,
  HealthzUnavailableSchema,
} from "./http-bodies";
export {
  findInputFlaw,
  hasNulCharacter,
  type InputFlaw,
  LONE_SURROGATE_REASON,
  NUL_CHARACTER_REASON,
  storableBody,
  unstorableTextReason,
} from "./input/storable-input";
export {
  actionJsonSchemas,
  type JsonSchema,
  relayToolInputJsonSchema,
} from "./json-schema/input-json-schema";
export { LIMITS } from "./limits";
export {
  type CardStatus,
  CardStatusSchema,
  type OwnerCardAnswerBody,
  OwnerCardAnswerBodySchema,
  type OwnerCardsQuery,
  OwnerCardsQuerySchema,
  type OwnerInboxAnswerBody,
  OwnerInboxAnswerBodySchema,
  type OwnerInboxQuery,
  OwnerInboxQuerySchema,
} from "./owner/answers";
export {
  type OwnerCreateGroupBody,
  OwnerCreateGroupBodySchema,
  type OwnerRenameGroupBody,
  OwnerRenameGroupBodySchema,
} from "./owner/groups";
export {
  type OwnerCreatePeerBody,
  OwnerCreatePeerBodySchema,
  type OwnerPatchPeerBody,
  OwnerPatchPeerBodySchema,
  type OwnerPeer,
  OwnerPeerSchema,
  type PeerName,
  PeerNameSchema,
  PeerUrlSchema,
  RelayNameSchema,
} from "./owner/peers";
export { type OwnerProviders, OwnerProvidersSchema } from "./owner/providers";
export {
  type OwnerCreateSessionBody,
  OwnerCreateSessionBodySchema,
  type OwnerMessageJson,
  OwnerMessageSchema,
  type OwnerPatchSessionBody,
  OwnerPatchSessionBodySchema,
  type OwnerPostMessageBody,
  OwnerPostMessageBodySchema,
  type OwnerSessionDetailJson,
  OwnerSessionDetailSchema,
  type OwnerSessionViewJson,
  OwnerSessionViewSchema,
  type OwnerToolCall,
  OwnerToolCallSchema,
  type TokenResponse,
  TokenResponseSchema,
} from "./owner/sessions";
export {
  type OwnerSettings,
  type OwnerSettingsPatch,
  OwnerSettingsPatchSchema,
  OwnerSettingsSchema,
} from "./owner/settings";
export {
  type OwnerSubscription,
  OwnerSubscriptionSchema,
  type OwnerUnsubscribeResult,
  OwnerUnsubscribeResultSchema,
} from "./owner/subscriptions";
export {
  type PeerEventsPage,
  PeerEventsPageSchema,
  type PeerEventsQuery,
  PeerEventsQuerySchema,
  type PeerInfo,
  PeerInfoSchema,
  type PeerOrigin,
  PeerOriginSchema,
  type PeerPreflight,
  PeerPreflightSchema,
  type PeerQuestionStatus,
  PeerQuestionStatusSchema,
  type PeerToolRequest,
  PeerToolRequestSchema,
  type PeerUpdateChanges,
  PeerUpdateChangesSchema,
} from "./peer";
export {
  PEER_FEATURE_GATES,
  PEER_FEATURES,
  type PeerFeature,
  type PeerFeatureGate,
  peerFeatureGate,
} from "./peer-features";
export {
  type GroupInfo,
  GroupInfoSchema,
  type GroupRef,
  GroupRefSchema,
  type PendingQuestion,
  PendingQuestionSchema,
  type Reply,
  ReplySchema,
  type SessionRef,
  SessionRefSchema,
  type TaskHealth,
  TaskHealthSchema,
  type TaskSummary,
  TaskSummarySchema,
  type TestCounts,
  TestCountsSchema,
} from "./results/common";
export {
  type Subscription,
  type SubscriptionEntry,
  SubscriptionEntrySchema,
  SubscriptionSchema,
} from "./results/subscription";
export { type IsoDateTime, IsoDateTimeSchema, isIsoDateTimeWithOffset } from "./time/iso-date-time";
export { isIanaTimeZone } from "./time/time-zone";
export { LEGACY_RELAY_TOOL_NAME, RELAY_TOOL_DESCRIPTION, RELAY_TOOL_NAME } from "./tool-name";
export {
  type EndedTurnStatus,
  EndedTurnStatusSchema,
  type GroupRole,
  GroupRoleSchema,
  type MessageRole,
  MessageRoleSchema,
  type Mode,
  ModeSchema,
  type PermissionLevel,
  PermissionLevelSchema,
  type QuestionKind,
  QuestionKindSchema,
  type QuestionStatus,
  QuestionStatusSchema,
  type ScheduleEndReason,
  ScheduleEndReasonSchema,
  type SessionScope,
  SessionScopeSchema,
  type SessionState,
  SessionStateSchema,
  type SubscriptionEndReason,
  SubscriptionEndReasonSchema,
  type SubscriptionScope,
  SubscriptionScopeSchema,
  type TaskStatus,
  TaskStatusSchema,
  type TokenKind,
  TokenKindSchema,
  type TurnStatus,
  TurnStatusSchema,
  type TurnWaitStatus,
  TurnWaitStatusSchema,
} from "./vocabulary";
