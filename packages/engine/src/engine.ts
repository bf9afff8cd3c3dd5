import type { Clock, IdGenerator, Logger } from "@oar/core";
import type { CardKind, CardStatus, CardStore, LoopCounterStore, UnlockStore } from "@oar/permissions";
import type { DeliveryStore, SubscriptionStore } from "@oar/scheduler";
import type {
  OwnerCardAnswerBody,
  OwnerCreateGroupBody,
  OwnerCreatePeerBody,
  OwnerCreateSessionBody,
  OwnerInboxAnswerBody,
  OwnerPatchPeerBody,
  OwnerPatchSessionBody,
  OwnerPeer,
  OwnerSettings,
  OwnerSettingsPatch,
  OwnerSubscription,
  OwnerToolCall,
  OwnerUnsubscribeResult,
  PeerEventsPage,
  PeerEventsQuery,
  PeerOrigin,
  PeerQuestionStatus,
  ScheduleEntry,
  TaskSummary,
  ProviderInfo as WireProviderInfo,
} from "@oar/schema";
import type { EventStore, OutboxRecord } from "./ports/event-store";
import type { FolderResolver } from "./ports/folder-resolver";
import type { GroupListItem, GroupRecord, GroupStore } from "./ports/group-store";
import type { LeaseStore } from "./ports/lease-store";
import type { PeerLink } from "./ports/peer-link";
import type { PeerStore } from "./ports/peer-store";
import type { Provider, ProviderSource } from "./ports/provider";
import type { QuestionStore } from "./ports/question-store";
import type { ScheduleStore } from "./ports/schedule-store";
import type {
  MessageRecord,
  SessionListItem,
  SessionRecord,
  SessionStore,
  TurnRecord,
} from "./ports/session-store";
import type { SettingsStore } from "./ports/settings-store";
import type { TaskStore } from "./ports/task-store";
import type { TokenRecord, TokenStore } from "./ports/token-store";
import type { ToolCallStore } from "./ports/tool-call-store";
import type { InboxItem } from "./questions/question-views";
import type { RunnerProcess } from "./runtime/runner-lease";
import type { PendingQuestionView } from "./runtime/session-runtime";
import type { TokenSecrets } from "./tokens/token-secrets";

/** The stores the action engine works on (implemented by @oar/storage, or by memory stores in tests). */
export interface EngineStores {
  readonly sessions: SessionStore;
  readonly groups: GroupStore;
  readonly settings: SettingsStore;
  readonly questions: QuestionStore;
  /** Approval cards (DESIGN GAP-04). */
  readonly cards: CardStore;
  /** Paired relays unlocked per conversation (§3). */
  readonly unlocks: UnlockStore;
  /** The anti-loop guard's counts (GAP-04 (f)). */
  readonly loopCounters: LoopCounterStore;
  /** Paired relays (DESIGN §4 pairing). */
  readonly peers: PeerStore;
  /** Agent tokens and invites, as hashes (DESIGN §7). */
  readonly tokens: TokenStore;
  /** Each relay process's lease on the turns it runs (DESIGN §9). */
  readonly leases: LeaseStore;
  /** The outbox: every lifecycle change's event (DESIGN §3, §9). */
  readonly events: EventStore;
  /** Subscriptions (§23–§32). */
  readonly subscriptions: SubscriptionStore;
  /** Events on their way to watchers, wake-ups, the routing cursor. */
  readonly deliveries: DeliveryStore;
  /** Background tasks (§13). */
  readonly tasks: TaskStore;
  /** Durable schedules and their recorded slots (§33). */
  readonly schedules: ScheduleStore;
  /** The relay_tool calls of this relay's conversations (R-UI-02). */
  readonly toolCalls: ToolCallStore;
  /**
   * Runs `work` on these stores bound to one transaction: every write it makes lands, or none
   * does (DESIGN §7: a refused or failed call changes nothing). Inside, use only the stores
   * `work` is given: on the embedded database's single connection any other query would wait
   * for the transaction to end. A transaction started inside one joins it.
   */
  transaction<T>(work: (stores: EngineStores) => Promise<T>): Promise<T>;
}

export interface RelayIdentity {
  readonly name: string;
  readonly version: string;
  /** e.g. "linux-x64" (relay_info, R-RINFO-01). */
  readonly platform: string;
}

export interface EngineDeps {
  readonly stores: EngineStores;
  /** The built-in providers; those of `providerSources` join them as the owner's settings make them. */
  readonly providers: readonly Provider[];
  /** Providers the owner configures in `settings.providers` (command CLIs, Claude Code). */
  readonly providerSources?: readonly ProviderSource[];
  /**
   * This relay's base URL as its own agents reach it (`http://127.0.0.1:8787`): CLI agents get it
   * with an agent token (OAR_RELAY_URL, the Claude MCP config). Absent, they get no relay access.
   */
  readonly relayUrl?: string | (() => string | undefined);
  /** Where background tasks' output files go (DESIGN §3: under the data dir). */
  readonly taskOutputDir?: string;
  /** The environment background tasks start from (the relay's, without its own secrets); default the relay's own. */
  readonly childEnv?: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly relay: RelayIdentity;
  readonly logger?: Logger;
  /** Folders sessions may use (DESIGN §7); the first is the default cwd. Absent: any folder. */
  readonly allowedRoots?: readonly string[];
  /** Follows symlinks in folders before they are checked against the roots; default: none followed. */
  readonly folders?: FolderResolver;
  /** Link that opens a session in the console, when the relay has one (R-WST-06). */
  readonly openUrl?: (sessionId: string) => string;
  /**
   * Approval cards (DESIGN GAP-04) gate the calls on this relay: first create_session, writes in
   * ask/plan, update_session of another session, anti-loop. On unless set to false (tests of
   * other things); off, update_session of another session is refused instead.
   */
  readonly approvalCards?: boolean;
  /**
   * Other relay processes use the same stores (Postgres, DESIGN §9): turns are recovered by
   * lease, and waits look for changes made elsewhere. Default false: the embedded database is
   * locked to one process, so at start every turn left running is known to be orphaned.
   */
  readonly sharedStore?: boolean;
  /**
   * This relay process (host and pid) and how it tells whether another pid of its host runs: with
   * `sharedStore`, the turns of a relay process of this host that is gone end at once (at start,
   * or at the next heartbeat) instead of when its lease expires. Absent: only expiry ends them.
   */
  readonly runnerProcess?: RunnerProcess;
  /** How tokens are made and hashed; default the platform's Web Crypto. */
  readonly secrets?: TokenSecrets;
  /** The network to paired relays; absent, every paired relay is unreachable (and says so). */
  readonly peerLink?: PeerLink;
  /** How often the events of subscriptions on paired relays are fetched (§28); default 3 s of the clock. */
  readonly peerPollMs?: number;
}

/** The result object of a relay_tool call: an ok envelope or an error envelope (R-CALL-03/04). */
export type ToolResult = { readonly ok: boolean; readonly [field: string]: unknown };

export interface ExecuteOptions {
  /** Under which name the call arrived; `remote_relay` runs the same way (R-NAME-05). */
  readonly toolName?: "relay_tool" | "remote_relay";
  /** Aborted when the client goes away: long waits end early. */
  readonly signal?: AbortSignal;
}

/** A session as the owner API shows it: the row, its badges, and what runs in it. */
export interface OwnerSessionView extends SessionListItem {
  readonly viaAgentBadge: string | null;
  readonly watched: boolean;
  readonly watching: number;
}

export interface OwnerSessionDetail extends OwnerSessionView {
  readonly messages: readonly MessageRecord[];
  readonly turns: readonly TurnRecord[];
  readonly inFlight: { readonly turnId: string; readonly text: string } | null;
  readonly pendingQuestions: readonly PendingQuestionView[];
  readonly tasks: readonly TaskSummary[];
  /** The schedules that fire in it or that it created, active and ended in the last hour (the ⏰ list, R-SCHEND-01). */
  readonly schedules: readonly ScheduleEntry[];
  /** Its non-blocking questions, pending and closed in the last day: the cards the session shows (R-ASK-01). */
  readonly inboxQuestions: readonly InboxItem[];
  /** The live subscriptions it holds as the watcher: the `watching N sessions` chip (R-UI-06). */
  readonly subscriptions: readonly OwnerSubscription[];
  /** Its agent's newest relay_tool calls (at most 200), oldest first: the 🛰️ lines (R-UI-02). */
  readonly toolCalls: readonly OwnerToolCall[];
}

/** An invite as the owner sees it: never the token again, only which relay it belongs to (`null`: unused). */
export interface OwnerInvite {
  readonly id: string;
  readonly relay: string | null;
  readonly createdAt: number;
}

/** A pairing as the owner sees it; `online` and `version` are what it said when last asked. */
export type OwnerPeerView = OwnerPeer;

/** A blocking question (`ask_user`) of a session's turn. */
export interface OwnerQuestionCard {
  readonly id: string;
  readonly kind: "question";
  readonly sessionId: string;
  readonly text: string;
  readonly options: readonly string[];
  readonly status: "pending" | "answered" | "ended";
  readonly createdAt: number;
}

/** An approval card (DESIGN GAP-04): a relay_tool call waits on the owner's Allow or Deny. */
export interface OwnerApprovalCard {
  readonly id: string;
  readonly kind: "approval";
  /** Why it asks: first_create_session, write_in_mode, update_other_session, anti_loop… */
  readonly reason: CardKind;
  /** The conversation whose agent made the call. */
  readonly sessionId: string;
  readonly action: string;
  readonly targetRelay: string;
  readonly targetSession: string | null;
  readonly text: string;
  /** The action-specific lines (R-UI-08). */
  readonly detail: readonly string[];
  readonly options: readonly string[];
  readonly status: CardStatus;
  readonly createdAt: number;
  readonly answeredAt: number | null;
  readonly expiresAt: number;
}

export type OwnerCard = OwnerQuestionCard | OwnerApprovalCard;

/** The statuses the owner lists cards by: a question's, an approval's, or `ended` (a question's, or an expired approval). */
export type OwnerCardStatus = OwnerQuestionCard["status"] | OwnerApprovalCard["status"];

/**
 * The owner's verbs (DESIGN §4 owner surface). Refusals throw RelayError with a wire code:
 * REMOTE_RELAY_NOT_FOUND for an unknown id, REMOTE_RELAY_INVALID_INPUT for a bad value.
 */
export interface OwnerApi {
  createSession(body: OwnerCreateSessionBody): Promise<OwnerSessionDetail>;
  listSessions(options?: { readonly scope?: "active" | "archived" | "all" }): Promise<OwnerSessionView[]>;
  getSession(id: string): Promise<OwnerSessionDetail>;
  patchSession(id: string, body: OwnerPatchSessionBody): Promise<OwnerSessionDetail>;
  /** A user message: starts a turn (and, with permissions, unlocks mentioned relays and resets the anti-loop count). */
  postMessage(
    id: string,
    text: string,
  ): Promise<{ readonly message: MessageRecord; readonly turn: TurnRecord | null }>;
  archiveSession(id: string): Promise<SessionRecord>;
  /**
   * A new conversation continues this one from a summary; the old one is archived and its
   * schedules, questions and subscriptions move to the new one, in one change.
   */
  compactSession(id: string): Promise<OwnerSessionDetail & { readonly compactedFrom: string }>;
  killSession(id: string): Promise<void>;
  /** Deletes the session, revokes its agent tokens and forgets its call log, in one change. */
  deleteSession(id: string): Promise<void>;
  /** A new agent token of the session; the token is shown this once. */
  issueAgentToken(sessionId: string): Promise<string>;
  getSettings(): Promise<OwnerSettings>;
  patchSettings(patch: OwnerSettingsPatch): Promise<OwnerSettings>;
  listGroups(): Promise<GroupListItem[]>;
  createGroup(body: OwnerCreateGroupBody): Promise<GroupRecord>;
  renameGroup(id: string, name: string): Promise<GroupRecord>;
  dissolveGroup(id: string): Promise<void>;
  listCards(options?: { readonly status?: OwnerCardStatus }): Promise<OwnerCard[]>;
  answerCard(id: string, body: OwnerCardAnswerBody): Promise<OwnerCard>;
  /**
   * Unsubscribe in the `watching` chip (R-UI-06, R-SLIFE-02 (a)): ends one subscription of a
   * conversation of this relay as `unsubscribed`. Unknown → REMOTE_RELAY_NOT_FOUND; one that had
   * ended already → `ended: []` and a `note`.
   */
  unsubscribe(id: string): Promise<OwnerUnsubscribeResult>;
  /** The providers "start a conversation" offers, as relay_info lists them (R-RINFO-03). */
  listProviders(): Promise<WireProviderInfo[]>;
  /** Cancel in the ⏰ list (R-SCHEND-01): ends the schedule as `unscheduled`; the listing entry after. */
  cancelSchedule(id: string): Promise<ScheduleEntry>;
  /** The non-blocking questions pending here (`closed`: and those closed in the last day). */
  listInbox(options?: { readonly closed?: boolean }): Promise<InboxItem[]>;
  /** Answers, picks an option of, or dismisses a pending non-blocking question (R-QANS-01). */
  answerInbox(id: string, body: OwnerInboxAnswerBody): Promise<InboxItem>;
  /**
   * Pairs with another relay (the token is one that relay issued). The name must be free and not
   * this relay's own; the address must pass R-HOP-06 and hold no credentials, here and in
   * patchPeer (REMOTE_RELAY_INVALID_INPUT naming url, nothing stored). The relay is
   * asked for its version at once; one that does not answer is paired all the same, offline.
   */
  createPeer(body: OwnerCreatePeerBody): Promise<OwnerPeerView>;
  listPeers(): Promise<OwnerPeerView[]>;
  /** A new invite another relay pairs with (DESIGN §4); the token is shown this once. */
  issueInvite(): Promise<string>;
  listInvites(): Promise<OwnerInvite[]>;
  revokeInvite(id: string): Promise<void>;
  patchPeer(name: string, body: OwnerPatchPeerBody): Promise<OwnerPeerView>;
  removePeer(name: string): Promise<void>;
  /** The outbox after `after` (exclusive), oldest first, at most `limit` (`GET /v1/owner/events`). */
  listEvents(options: { readonly after: number; readonly limit: number }): Promise<OutboxRecord[]>;
  /** The outbox's newest seq (0 when empty): where a stream that asks for no backlog starts. */
  lastEventSeq(): Promise<number>;
  /**
   * Calls `listener` whenever events may have been appended, by this process or (through the
   * stores' hint) another one. Returns the function that stops it.
   */
  onEvents(listener: () => void): () => void;
}

export interface Engine {
  /** Runs one relay_tool call for the calling session (parse, rules, action); never throws for bad input. */
  execute(callerSessionId: string, input: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  /**
   * Runs one relay_tool call that another relay's agent made through the peer surface (DESIGN §4):
   * this relay applies its side of the rules — Accept prompts (R-PERM-07/08), the hop rule
   * (R-HOP-01), who started a session (R-UPD-12) — and gives the prompts the remote header (R-HOP-03).
   */
  executeFromPeer(origin: PeerOrigin, input: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  /**
   * The live token of `kind` a bearer is, or null (DESIGN §7: the kinds are never
   * interchangeable). A token revoked through this engine is refused at once, one revoked by
   * another relay process within a second.
   */
  authenticate(kind: "agent" | "invite", token: string): Promise<TokenRecord | null>;
  /** Binds an unused invite to the relay calling with it; an invite bound to another relay → REMOTE_RELAY_AUTH. */
  bindInvite(invite: TokenRecord, relay: string): Promise<void>;
  /** Whether relay_tool is offered to this session (DESIGN GAP-02); `tools/list` follows it. */
  isToolEnabled(sessionId: string): Promise<boolean>;
  /**
   * GET /v1/peer/subscriptions/:id/events (§28): a page of the events of a subscription that
   * `relay` (the relay the invite is bound to; `null`: none yet) holds here. Unknown, another
   * relay's, or ended with nothing left: RelayError REMOTE_RELAY_NOT_FOUND.
   */
  peerSubscriptionEvents(
    relay: string | null,
    subscriptionId: string,
    query: PeerEventsQuery,
  ): Promise<PeerEventsPage>;
  /** GET /v1/peer/questions/:id: a question `relay` asked here (R-QCHK-05); another's or unknown: REMOTE_RELAY_NOT_FOUND. */
  peerQuestion(relay: string | null, questionId: string): Promise<PeerQuestionStatus>;
  readonly owner: OwnerApi;
  /**
   * Resolves once the event dispatcher has nothing left to do now: what the outbox holds is
   * routed and what is due is sent (tests and benchmarks, after moving a fake clock); a poll of
   * paired relays' events under way ends first.
   */
  settleEvents(): Promise<void>;
  /** Recovers after a restart (running turns → error, queued turns start). */
  start(): Promise<void>;
  /** Closes every worker. The stores stay open: their owner closes them. */
  close(): Promise<void>;
}
