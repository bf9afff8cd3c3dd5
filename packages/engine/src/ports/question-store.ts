import type { QuestionStatus } from "@oar/schema";
import type { QuestionAnswer } from "./provider";

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

/** Blocking question cards; the non-blocking `ask` questions get their own port with their issue. */
export interface QuestionStore {
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
