import type { CardKind, CardStatus } from "@oar/permissions";
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
  ScheduleEntry,
  TaskSummary,
  ProviderInfo as WireProviderInfo,
} from "@oar/schema";
import type { OutboxRecord } from "../ports/event-store";
import type { GroupListItem, GroupRecord } from "../ports/group-store";
import type { MessageRecord, SessionListItem, SessionRecord, TurnRecord } from "../ports/session-store";
import type { InboxItem } from "../questions/question-views";
import type { PendingQuestionView } from "../runtime/session-runtime";

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
