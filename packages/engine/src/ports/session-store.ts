import type {
  EndedTurnStatus,
  GroupRole,
  MessageRole,
  Mode,
  SessionScope,
  SessionState,
  TurnStatus,
} from "@oar/schema";
import type { JsonObject, JsonValue } from "./json";

/** A conversation: a session on this relay (`relay: null`) or on a paired relay. */
export interface ConversationRef {
  readonly relay: string | null;
  readonly session: string;
}

/**
 * Where a prompt came from, for the `↗ from` badge and the hop rule (R-HOP-01, R-SCH-14):
 * the relay, session, title and model of the sending agent and how many relays it has crossed.
 */
export interface Provenance {
  readonly relay: string;
  readonly session: string;
  readonly title: string;
  readonly model: string | null;
  readonly hops: number;
  /** The sending conversation's user unlocked this relay personally (by mentioning it). */
  readonly userUnlocked: boolean;
}

export type TurnOriginKind = "owner" | "agent" | "schedule" | "event" | "answer";

/** Who queued a turn; `provenance` is set when another agent's prompt started it. */
export interface TurnOrigin {
  readonly kind: TurnOriginKind;
  readonly provenance?: Provenance;
  readonly scheduleId?: string;
  /** The mode the turn runs in when the prompt named one (R-SEND-05). */
  readonly mode?: Mode;
}

export interface SessionRecord {
  readonly id: string;
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  readonly effort: string | null;
  readonly mode: Mode;
  readonly cwd: string | null;
  readonly repo: string | null;
  readonly branch: string | null;
  readonly state: SessionState;
  /** The conversation whose agent started it; `null` when the owner did. */
  readonly createdBy: ConversationRef | null;
  /** Title of the agent that started it, shown as the `viaAgent` badge. */
  readonly viaAgent: string | null;
  readonly mayCreateSessions: boolean;
  readonly group: { readonly id: string; readonly role: GroupRole } | null;
  /** Provider settings kept for the next turns: auto_compact_window, thinking_enabled, … */
  readonly settings: JsonObject;
  /** What the provider needs to resume the session after a restart (e.g. a CLI session id). */
  readonly providerState: JsonValue;
  readonly createdAt: number;
  readonly lastActivityAt: number;
  readonly archivedAt: number | null;
}

export interface SessionListItem extends SessionRecord {
  readonly messageCount: number;
}

export interface NewSession {
  readonly id: string;
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  readonly effort?: string | null;
  readonly mode?: Mode;
  readonly cwd?: string | null;
  readonly repo?: string | null;
  readonly branch?: string | null;
  readonly createdBy?: ConversationRef | null;
  readonly viaAgent?: string | null;
  readonly mayCreateSessions?: boolean;
  readonly settings?: JsonObject;
  readonly createdAt: number;
}

export type SessionPatch = Partial<
  Pick<
    SessionRecord,
    | "title"
    | "provider"
    | "model"
    | "effort"
    | "mode"
    | "cwd"
    | "repo"
    | "branch"
    | "state"
    | "mayCreateSessions"
    | "settings"
    | "providerState"
    | "lastActivityAt"
  >
>;

export interface ListSessionsOptions {
  readonly scope?: SessionScope;
  readonly groupId?: string;
  readonly limit?: number;
}

export interface MessageRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string | null;
  readonly role: MessageRole;
  readonly text: string;
  readonly provenance: Provenance | null;
  readonly createdAt: number;
}

export interface NewMessage {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId?: string | null;
  readonly role: MessageRole;
  readonly text: string;
  readonly provenance?: Provenance | null;
  readonly createdAt: number;
}

/**
 * The relay process that claimed a turn: its lease (DESIGN §9) and the fencing token the lease
 * had then. A process that lost its lease can no longer end the turn.
 */
export interface TurnRunner {
  readonly lease: string;
  readonly token: number;
}

export interface TurnRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly status: TurnStatus;
  /** Who runs it: set when it is claimed; `null` while queued (and for turns of older relays). */
  readonly runner: TurnRunner | null;
  readonly promptMessageId: string | null;
  readonly origin: TurnOrigin;
  readonly reply: string | null;
  readonly error: string | null;
  readonly queuedAt: number;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  /** When the running turn last produced output, as marked (GAP-13: what `stalled` measures from). */
  readonly lastOutputAt: number | null;
}

export interface NewTurn {
  readonly id: string;
  readonly sessionId: string;
  readonly promptMessageId?: string | null;
  readonly origin: TurnOrigin;
  readonly queuedAt: number;
}

export interface FinishTurn {
  readonly turnId: string;
  readonly status: EndedTurnStatus;
  readonly reply?: string | null;
  readonly error?: string | null;
  readonly endedAt: number;
  /**
   * The claim's runner: when set, only a turn running under exactly this runner ends, so a
   * process whose lease was taken over cannot end a turn another process already recovered.
   */
  readonly runner?: TurnRunner;
  /**
   * When set and the turn ends here with a non-empty reply, the reply is also appended as the
   * session's assistant message with this id, in the same write: no reader ever sees an ended
   * turn without its message, and a crash cannot keep one without the other.
   */
  readonly replyMessageId?: string;
}

/**
 * Sessions, their messages and their turns. Deleted sessions are gone for every read; ids come
 * from the caller's IdGenerator and every time from the caller's Clock (epoch milliseconds).
 */
export interface SessionStore {
  createSession(input: NewSession): Promise<SessionRecord>;
  /** `null` for an unknown or deleted session; archived sessions are returned. */
  getSession(id: string): Promise<SessionRecord | null>;
  /** The sessions of `ids` that exist and are not deleted (archived ones included), in no set order. */
  getSessions(ids: readonly string[]): Promise<SessionRecord[]>;
  /** Most recent activity first. */
  listSessions(options?: ListSessionsOptions): Promise<SessionListItem[]>;
  updateSession(id: string, patch: SessionPatch): Promise<SessionRecord | null>;
  /**
   * Inside a transaction, holds the session's row until it ends, so that what the transaction
   * reads next comes after every other change of that session that held it (Postgres: `FOR NO
   * KEY UPDATE`, which the rows pointing at the session do not wait for). A turn and a task of
   * one session ending at once each read the other as still running without it, and the last
   * to commit left the session `running_turn`. An unknown id holds nothing.
   */
  lockSession(id: string): Promise<void>;
  archiveSession(input: { readonly id: string; readonly at: number }): Promise<SessionRecord | null>;
  unarchiveSession(id: string): Promise<SessionRecord | null>;
  /** Soft delete: the row stays for history, every read treats it as gone. */
  deleteSession(input: { readonly id: string; readonly at: number }): Promise<boolean>;

  /** Also moves the session's (and its group's) last activity forward to `createdAt`. */
  appendMessage(input: NewMessage): Promise<MessageRecord>;
  /** appendMessage for several messages at once (one per watcher of a dispatcher pass), in order. */
  appendMessages(inputs: readonly NewMessage[]): Promise<MessageRecord[]>;
  /** New texts for messages not yet committed elsewhere (an event message that grew before its commit). */
  reviseMessages(revisions: readonly { readonly id: string; readonly text: string }[]): Promise<void>;
  /** The last `last` messages (all when omitted), oldest first. */
  listMessages(sessionId: string, options?: { readonly last?: number }): Promise<MessageRecord[]>;

  enqueueTurn(input: NewTurn): Promise<TurnRecord>;
  /** A running turn produced output at `at`: its lastOutputAt moves forward to it, never back. */
  markTurnOutput(input: { readonly id: string; readonly at: number }): Promise<void>;
  /** enqueueTurn for several turns at once, in order. */
  enqueueTurns(inputs: readonly NewTurn[]): Promise<TurnRecord[]>;
  getTurn(id: string): Promise<TurnRecord | null>;
  /**
   * Starts the oldest queued turn of the session, unless one is already running there: at most
   * one turn runs per session, even with several processes claiming at once.
   */
  claimNextTurn(input: {
    readonly sessionId: string;
    readonly now: number;
    /** Recorded on the turn: who runs it. */
    readonly runner?: TurnRunner;
  }): Promise<TurnRecord | null>;
  /** Ends a queued or running turn; `null` when it had already ended (the first finisher wins). */
  finishTurn(input: FinishTurn): Promise<TurnRecord | null>;
  /** Queued and running turns, in queue order, of one session or of all. */
  listActiveTurns(options?: { readonly sessionId?: string }): Promise<TurnRecord[]>;
  /** Sessions started by that conversation with a turn queued or running (the 4-active rule, R-LOCAL-01). */
  countActiveSessionsCreatedBy(conversation: ConversationRef): Promise<number>;
  /**
   * Running turns whose worker is gone end as `error`: all of them (`runner` omitted, the embedded
   * database's one process at start), those claimed under a lease (a process that died), or
   * (`null`) those claimed without one (by a relay before leases).
   */
  failRunningTurns(input: {
    readonly error: string;
    readonly endedAt: number;
    readonly runner?: string | null;
  }): Promise<TurnRecord[]>;
  /** One message of any live or deleted session; `null` for an unknown id. */
  getMessage(id: string): Promise<MessageRecord | null>;
  /** The turn a prompt message started (wait's `message_id`); `null` when none did. */
  findTurnByPromptMessage(messageId: string): Promise<TurnRecord | null>;
}
