export { createEngine } from "./create-engine";
export type { Engine } from "./engine";
export { TOOL_CALL_BATCH_MAX, TOOL_CALL_WINDOW_MS } from "./live/tool-call-writer";
export { createOwnerApi } from "./owner/create-owner-api";
export type {
  OwnerApi,
  OwnerApprovalCard,
  OwnerCard,
  OwnerCardStatus,
  OwnerQuestionCard,
  OwnerSessionDetail,
  OwnerSessionView,
} from "./owner/owner-api";
export type {
  ClusterLink,
  ClusterReplies,
  ClusterReply,
  ClusterRequest,
  ClusterTarget,
} from "./ports/cluster-link";
export type { EngineDeps, RelayIdentity } from "./ports/engine-deps";
export {
  type EngineObserver,
  silentObserver,
  type ToolCallReport,
  type TurnEndedReport,
} from "./ports/engine-observer";
export type { EngineStores } from "./ports/engine-stores";
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
  RunnerProcess,
} from "./ports/lease-store";
export type { PeerAddress, PeerLink } from "./ports/peer-link";
export type { NewPeer, PeerPatch, PeerRecord, PeerStore } from "./ports/peer-store";
export type {
  AgentAccess,
  Provider,
  ProviderInfo,
  ProviderModel,
  ProviderSessionSettings,
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
export type { RetentionOptions } from "./ports/retention-options";
export { type AgedBatch, PRUNE_KINDS, type PruneKind, type RetentionStore } from "./ports/retention-store";
export type {
  NewSchedule,
  ScheduleFiring,
  ScheduleRecord,
  ScheduleStore,
  ScheduleTimingPatch,
} from "./ports/schedule-store";
export type { SessionHistory, SessionRead, SessionReadStore } from "./ports/session-read-store";
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
export type { NewToken, TokenRecord, TokenSecrets, TokenStore } from "./ports/token-store";
export type { ToolCallRecord, ToolCallStore } from "./ports/tool-call-store";
export type { ExecuteOptions, ToolResult } from "./ports/tool-result";
export type { InboxItem } from "./questions/question-views";
export { type PruneReport, RETENTION_LEASE_PREFIX } from "./retention/pruner";
export { RETENTION_DEFAULTS, type ResolvedRetention, resolveRetention } from "./retention/resolve-retention";
export { createSessionRuntime, type SessionRuntimeOptions } from "./runtime/create-session-runtime";
export type {
  EnqueuePrompt,
  PendingQuestionView,
  SessionRuntime,
  TurnSnapshot,
} from "./runtime/session-runtime";
export { patchSettings, readSettings } from "./settings/settings";
export { webCryptoSecrets } from "./tokens/token-secrets";
export { addUsage, type MonthUsage, monthUsage } from "./usage/provider-usage";
