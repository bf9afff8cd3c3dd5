export {
  antiLoopNeedsCard,
  countsAsPromptToAgent,
  type LoopEvent,
  loopCounterAfter,
  scheduleFiring,
} from "./anti-loop";
export type { CallShape } from "./call-shape";
export {
  type Approvals,
  billingSwitchLine,
  type CardCoverage,
  type CardDetails,
  type CardRequest,
  type CardsQuery,
  cardDetailLines,
  cardsNeeded,
  groupLine,
  NO_APPROVALS,
  type SubscriptionCardOptions,
  subscriptionOptionsLine,
  type UpdateChanges,
  updateChangesLine,
} from "./cards";
export { relayToolOffered } from "./enabling";
export {
  type Ask,
  type CallerFacts,
  type Decision,
  type EvaluateQuery,
  evaluateCall,
  type TargetSessionFacts,
} from "./evaluate";
export {
  forwardedHops,
  type HopQuery,
  hopRule,
  incomingHopRule,
  remotePromptHeader,
} from "./hops";
export {
  actsOnTarget,
  isWrite,
  LEVEL_LABELS,
  LEVELS,
  levelAllows,
  needsNoSettingNorMention,
  PERMISSION_TABLE,
  type RequiredLevel,
  requiredLevel,
} from "./levels";
export {
  ACCEPT_PROMPTS_SETTING,
  AGENT_SESSIONS_SETTING,
  acceptPromptsRule,
  type RelayAccessQuery,
  relayAccess,
  type TargetRelay,
} from "./locks";
export { findMentionedRelays, type MessageToken, tokenizeMessage } from "./mentions";
export {
  type PeerHostKind,
  peerAddressForDisplay,
  peerAddressProblem,
  peerAddressRule,
  peerHostKind,
} from "./peer-address";
export type {
  CardDecision,
  CardKind,
  CardRecord,
  CardStatus,
  CardStore,
  ListCardsFilter,
  LoopCounterStore,
  NewCard,
  RelayUnlock,
  UnlockHow,
  UnlockStore,
} from "./ports";
export {
  countsOnlyWithAt,
  type HostKey,
  isIpAddress,
  type NamedRelay,
  normalizeHost,
  type RelayRef,
  resolveRelayRef,
  sameHost,
} from "./relay-names";
export {
  activeSessionsRule,
  answerQuestionRule,
  NOT_ON_ITSELF,
  notOnItselfRule,
  oneLevelRule,
  type WokenSession,
} from "./session-rules";
export { ALLOW, type Allow, type Refuse, refuse, type Verdict } from "./verdict";
