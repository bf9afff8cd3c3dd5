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
