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
export type { Lease, LeaseRefusal, LeaseRequest, LeaseStore } from "./ports/lease-store";
export type { PeerAddress, PeerLink } from "./ports/peer-link";
export type { NewPeer, PeerPatch, PeerRecord, PeerStore } from "./ports/peer-store";
export type {
  Provider,
  ProviderInfo,
  ProviderModel,
  QuestionAnswer,
  TurnInput,
  TurnIO,
  TurnOutcome,
  Worker,
  WorkerSession,
} from "./ports/provider";
export type {
  BlockingQuestionRecord,
  BlockingQuestionStatus,
  NewBlockingQuestion,
  QuestionStore,
} from "./ports/question-store";
export type {
  ConversationRef,
  EndedTurnStatus,
  FinishTurn,
  GroupRole,
  ListSessionsOptions,
  MessageRecord,
  MessageRole,
  NewMessage,
  NewSession,
  NewTurn,
  Provenance,
  SessionListItem,
  SessionMode,
  SessionPatch,
  SessionRecord,
  SessionScope,
  SessionState,
  SessionStore,
  TurnOrigin,
  TurnOriginKind,
  TurnRecord,
  TurnStatus,
} from "./ports/session-store";
export type { SettingsStore } from "./ports/settings-store";
export type { NewToken, TokenKind, TokenRecord, TokenStore } from "./ports/token-store";
export { createSessionRuntime, type SessionRuntimeOptions } from "./runtime/create-session-runtime";
export type {
  EnqueuePrompt,
  PendingQuestionView,
  SessionRuntime,
  TurnSnapshot,
  TurnWaitStatus,
} from "./runtime/session-runtime";
export { patchSettings, readSettings } from "./settings";
