export { createEngine } from "./create-engine";
export type {
  Engine,
  EngineDeps,
  EngineStores,
  ExecuteOptions,
  OwnerApi,
  OwnerApprovalCard,
  OwnerCard,
  OwnerCardStatus,
  OwnerQuestionCard,
  OwnerSessionDetail,
  OwnerSessionView,
  RelayIdentity,
  ToolResult,
} from "./engine";
export { createOwnerApi } from "./owner/create-owner-api";
export type { EventStore, NewOutboxEvent, OutboxRecord } from "./ports/event-store";
export { type FolderResolver, identityFolderResolver } from "./ports/folder-resolver";
export type {
  GroupListItem,
  GroupRecord,
  GroupStore,
  ListGroupsOptions,
  MembershipChange,
  MembershipError,
  NewGroup,
} from "./ports/group-store";
export type { JsonObject, JsonValue } from "./ports/json";
export type {
  Lease,
  LeaseAcquisition,
  LeaseProcess,
  LeaseRefusal,
  LeaseRequest,
  LeaseStore,
} from "./ports/lease-store";
export type { PeerAddress, PeerLink } from "./ports/peer-link";
export type { NewPeer, PeerPatch, PeerRecord, PeerStore } from "./ports/peer-store";
export type {
  AgentAccess,
  Provider,
  ProviderInfo,
  ProviderModel,
  ProviderSource,
  QuestionAnswer,
  TaskEnd,
  TaskSpec,
  TurnInput,
  TurnIO,
  TurnOutcome,
  TurnUsage,
  Worker,
  WorkerSession,
} from "./ports/provider";
export type {
  BlockingQuestionRecord,
  BlockingQuestionStatus,
  ClosedInboxStatus,
  InboxQuestionRecord,
  NewBlockingQuestion,
  NewInboxQuestion,
  QuestionStore,
} from "./ports/question-store";
export type {
  NewSchedule,
  ScheduleFiring,
  ScheduleRecord,
  ScheduleStore,
  ScheduleTimingPatch,
} from "./ports/schedule-store";
export type {
  ConversationRef,
  FinishTurn,
  ListSessionsOptions,
  MessageRecord,
  NewMessage,
  NewSession,
  NewTurn,
  Provenance,
  SessionListItem,
  SessionPatch,
  SessionRecord,
  SessionStore,
  TurnOrigin,
  TurnOriginKind,
  TurnRecord,
  TurnRunner,
} from "./ports/session-store";
export type { SettingsStore } from "./ports/settings-store";
export type { NewTask, TaskEnding, TaskKind, TaskRecord, TaskStore } from "./ports/task-store";
export type { NewToken, TokenRecord, TokenStore } from "./ports/token-store";
export type { ToolCallRecord, ToolCallStore } from "./ports/tool-call-store";
export type { InboxItem } from "./questions/question-views";
export { createSessionRuntime, type SessionRuntimeOptions } from "./runtime/create-session-runtime";
export type { RunnerProcess } from "./runtime/runner-lease";
export type {
  EnqueuePrompt,
  PendingQuestionView,
  SessionRuntime,
  TurnSnapshot,
} from "./runtime/session-runtime";
export { patchSettings, readSettings } from "./settings";
export { type TokenSecrets, webCryptoSecrets } from "./tokens/token-secrets";
