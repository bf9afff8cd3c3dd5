import type { QuestionStatus } from "@oar/schema";
import type { QuestionAnswer } from "./provider";
import type { Provenance } from "./session-store";

/** A blocking question card is only ever pending, answered, or ended with its turn (GAP-19's statuses). */
export type BlockingQuestionStatus = Extract<QuestionStatus, "pending" | "answered" | "ended">;

/** A blocking question card (`ask_user`): a turn waits on it until someone answers (R-RSES-02). */
export interface BlockingQuestionRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly text: string;
  readonly options: readonly string[];
  readonly status: BlockingQuestionStatus;
  readonly answer: string | null;
  readonly choices: readonly string[] | null;
  readonly createdAt: number;
  readonly answeredAt: number | null;
}

export interface NewBlockingQuestion {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly text: string;
  readonly options: readonly string[];
  readonly createdAt: number;
}

/** How a non-blocking question stopped being pending (GAP-19). */
export type ClosedInboxStatus = Exclude<QuestionStatus, "pending">;

/**
 * A non-blocking question (`ask`, §34): shown in the owner's Inbox; the asker keeps working and
 * gets `question_answered` later.
 */
export interface InboxQuestionRecord {
  readonly id: string;
  /** The asking conversation, and its relay (null: this relay). */
  readonly askingRelay: string | null;
  readonly askingSession: string;
  /** The session the question is about: the asker's own, or the one named with `session`. */
  readonly sessionId: string;
  readonly text: string;
  readonly options: readonly string[];
  readonly recommendation: string | null;
  readonly detail: string | null;
  readonly status: QuestionStatus;
  readonly answer: string | null;
  readonly choice: string | null;
  /** The relay whose Inbox the owner answered in. */
  readonly via: string | null;
  readonly provenance: Provenance | null;
  readonly createdAt: number;
  /** When it was answered, dismissed, withdrawn or ended. */
  readonly closedAt: number | null;
  /**
   * Set on this relay's copy of a question it asked about a session of a paired relay, which
   * keeps the question (R-QCHK-05): that relay's name. The copy has the same id as the original.
   */
  readonly keptOnRelay: string | null;
  /** When this relay next asks the relay that keeps it whether it was answered; null once closed. */
  readonly nextPollAt: number | null;
}

export type NewInboxQuestion = Pick<
  InboxQuestionRecord,
  | "id"
  | "askingRelay"
  | "askingSession"
  | "sessionId"
  | "text"
  | "options"
  | "recommendation"
  | "detail"
  | "provenance"
  | "createdAt"
> &
  Partial<Pick<InboxQuestionRecord, "keptOnRelay" | "nextPollAt">>;

/** Blocking question cards (`ask_user`) and non-blocking Inbox questions (`ask`), in one table. */
export interface QuestionStore {
  createInboxQuestion(input: NewInboxQuestion): Promise<InboxQuestionRecord>;
  /** A non-blocking question; null for an unknown id or a blocking card's. */
  getInboxQuestion(id: string): Promise<InboxQuestionRecord | null>;
  /**
   * Non-blocking questions, oldest first: those asked by `askingSession` (of this relay) and/or
   * about `sessionId` (both given: either matches); all when neither is given. Pending ones, and
   * those closed at `closedSince` or later (none closed when null).
   */
  listInboxQuestions(options: {
    readonly askingSession?: string;
    readonly sessionId?: string;
    readonly closedSince: number | null;
  }): Promise<InboxQuestionRecord[]>;
  /** Pending questions asked by `askingSession` (this relay's), and pending ones about `sessionId` (R-QLIM-01). */
  countPendingInbox(options: {
    readonly askingSession: string;
    readonly sessionId: string;
  }): Promise<{ readonly asked: number; readonly concerning: number }>;
  /** Compare-and-set: closes a pending question; `null` when it was not pending. */
  closeInboxQuestion(input: {
    readonly id: string;
    readonly status: ClosedInboxStatus;
    readonly answer?: string | null;
    readonly choice?: string | null;
    readonly via?: string | null;
    readonly at: number;
  }): Promise<InboxQuestionRecord | null>;
  /**
   * Ends (status `ended`) the pending questions about one of `sessionIds`, or asked by one of them
   * on this relay (R-WDR-03); returns them.
   */
  endInboxQuestionsOf(input: {
    readonly sessionIds: readonly string[];
    readonly at: number;
  }): Promise<InboxQuestionRecord[]>;
  /** Compaction (R-WDR-04): questions asked by or about `from` (this relay's) now belong to `to`. */
  moveInboxQuestions(input: { readonly from: string; readonly to: string }): Promise<number>;
  /**
   * Claims up to `limit` pending copies of questions kept on paired relays whose `nextPollAt` has
   * come (FOR UPDATE SKIP LOCKED on a shared database), earliest first. Only inside a transaction.
   */
  claimDuePolls(options: { readonly now: number; readonly limit: number }): Promise<InboxQuestionRecord[]>;
  /** When to ask again about a copy (5 s, or 30 s while the relay does not respond). */
  setNextPoll(id: string, at: number): Promise<void>;
  /** The earliest `nextPollAt` of a pending copy, or null. */
  nextPollAt(): Promise<number | null>;
  /**
   * Ends (status `ended`) the pending copies of questions kept on `relay` (R-WDR-03: the pairing
   * is removed); returns them.
   */
  endInboxQuestionsKeptOn(input: {
    readonly relay: string;
    readonly at: number;
  }): Promise<InboxQuestionRecord[]>;

  createBlockingQuestion(input: NewBlockingQuestion): Promise<BlockingQuestionRecord>;
  getBlockingQuestion(id: string): Promise<BlockingQuestionRecord | null>;
  listBlockingQuestions(options: {
    readonly sessionId?: string;
    readonly status?: BlockingQuestionStatus;
  }): Promise<BlockingQuestionRecord[]>;
  /** Compare-and-set: only a pending question takes an answer; `null` when it was not pending. */
  answerBlockingQuestion(input: {
    readonly id: string;
    readonly answer: QuestionAnswer;
    readonly at: number;
  }): Promise<BlockingQuestionRecord | null>;
  /** A question whose turn ended (stopped, relay restarted) can no longer be answered. */
  endBlockingQuestionsOfTurn(input: { readonly turnId: string; readonly at: number }): Promise<number>;
}
