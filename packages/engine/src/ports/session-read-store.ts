import type { SessionScope } from "@oar/schema";
import type { InboxQuestionRecord } from "./question-store";
import type { MessageRecord, SessionListItem, SessionRecord, TurnRecord } from "./session-store";
import type { TaskRecord } from "./task-store";

/** What read_session shows of a session, read at once. */
export interface SessionRead {
  /** The session, archived or not (a deleted one is never read). */
  readonly session: SessionRecord;
  /** Its last `last` messages, oldest first (SessionStore.listMessages). */
  readonly messages: MessageRecord[];
  /** The pending Inbox questions about it (QuestionStore.listInboxQuestions, none closed). */
  readonly inboxQuestions: InboxQuestionRecord[];
  /** Its tasks that run or ended at `tasksEndedSince` or later (TaskStore.listTasksOfSessions). */
  readonly tasks: TaskRecord[];
}

/** The owner's view of a session's conversation, read at one moment of the store. */
export interface SessionHistory {
  /** The session, archived or not (a deleted one is never read). */
  readonly session: SessionRecord;
  /** All its messages, oldest first (SessionStore.listMessages). */
  readonly messages: MessageRecord[];
  /**
   * Its turns its messages started or answer (a message's `turnId`, a user message's turn by
   * `promptMessageId`) and those queued or running, oldest first (by queue time, then the order
   * they were queued).
   */
  readonly turns: TurnRecord[];
}

/**
 * The reads the most frequent calls make, each in one round trip (issue 29: an agent reads the
 * others far more than it does anything else, and every statement was a cost it waited for).
 * Each gives exactly what the ports' own reads would give together; the contract suite checks it.
 */
export interface SessionReadStore {
  /** read_session's data; `null` when no such session (or it was deleted). */
  readSession(input: {
    readonly id: string;
    readonly last: number;
    readonly tasksEndedSince: number;
  }): Promise<SessionRead | null>;
  /**
   * GET /v1/owner/sessions/:id's conversation; `null` when no such session (or it was deleted).
   * Messages and turns are one snapshot: a turn ends with its reply in one change (FinishTurn's
   * `replyMessageId`), and a view read in parts showed it ended without the reply.
   */
  readSessionHistory(id: string): Promise<SessionHistory | null>;
  /**
   * list_sessions' data: the sessions in `scope` (SessionStore.listSessions), and their tasks that
   * run or ended at `tasksEndedSince` or later, oldest first (by start, then id).
   */
  listSessions(input: { readonly scope: SessionScope; readonly tasksEndedSince: number }): Promise<{
    readonly sessions: SessionListItem[];
    readonly tasks: TaskRecord[];
  }>;
}
