import { recordQuestionAnswered, recordQuestionAsked } from "../outbox/outbox";
import type { QuestionAnswer } from "../ports/provider";
import type { BlockingQuestionRecord } from "../ports/question-store";
import type { Wakeups } from "../wakeups";
import type { RunningTurn } from "./running-turns";
import type { RuntimeContext } from "./runtime-context";
import type { PendingQuestionView } from "./session-runtime";

/** Blocking question cards (`ask_user`): a turn asks, waits, and goes on with the answer. */
export interface BlockingQuestions {
  /** Raises the card; resolves with the answer, rejects when the turn is cut short first. */
  ask(
    turn: RunningTurn,
    question: { readonly text: string; readonly options: readonly string[] },
  ): Promise<QuestionAnswer>;
  /**
   * Compare-and-set on the row; `false` when the question was no longer pending. The answer goes
   * to the turn when it waits in this process; `elsewhere` is the turn waiting in another one.
   */
  answer(
    questionId: string,
    answer: QuestionAnswer,
  ): Promise<false | { readonly turnId: string; readonly elsewhere: boolean }>;
  /** Another process answered this question: its turn here goes on with the stored answer. */
  answeredElsewhere(questionId: string): Promise<boolean>;
  /** Each heartbeat: questions waited on here that another process answered without reaching this one. */
  recheck(): Promise<void>;
  pending(sessionId: string, turnId?: string): Promise<PendingQuestionView[]>;
  /** A question whose turn ended can no longer be answered. */
  endOfTurn(turnId: string): Promise<void>;
}

export function toPendingQuestionView(record: BlockingQuestionRecord): PendingQuestionView {
  return {
    id: record.id,
    kind: "ask_user",
    text: record.text,
    options: record.options,
    createdAt: record.createdAt,
  };
}

export function createBlockingQuestions(ctx: RuntimeContext, waiters: Wakeups): BlockingQuestions {
  const { questions } = ctx.stores;
  // The turns of this process waiting on a question, by question id.
  const waiting = new Map<string, (answer: QuestionAnswer) => void>();

  /** Hands the stored answer to the turn waiting on it here; false when none waits here. */
  const deliver = (record: BlockingQuestionRecord): boolean => {
    const waiter = waiting.get(record.id);
    waiter?.({
      ...(record.answer === null ? {} : { answer: record.answer }),
      ...(record.choices === null ? {} : { choices: record.choices }),
    });
    return waiter !== undefined;
  };

  return {
    async ask(turn, { text, options }) {
      const cutShort = () => new Error("The turn was stopped while it waited for an answer.");
      if (turn.signal.aborted) {
        throw cutShort();
      }
      const id = ctx.ids.next("question");
      const now = ctx.clock.now();
      // The card and its question_asked event are one change (DESIGN §9).
      await ctx.stores.transaction(async (stores) => {
        await stores.questions.createBlockingQuestion({
          id,
          sessionId: turn.sessionId,
          turnId: turn.turnId,
          text,
          options,
          createdAt: now,
        });
        const session = await stores.sessions.getSession(turn.sessionId);
        await recordQuestionAsked(
          { stores, ids: ctx.ids, relayName: ctx.relayName },
          { id, text, options },
          { id: turn.sessionId, title: session?.title ?? "" },
          now,
        );
      });
      return new Promise<QuestionAnswer>((resolve, reject) => {
        const onAbort = () => {
          waiting.delete(id);
          reject(cutShort());
        };
        if (turn.signal.aborted) {
          onAbort();
          return;
        }
        turn.signal.addEventListener("abort", onAbort, { once: true });
        waiting.set(id, (answer) => {
          turn.signal.removeEventListener("abort", onAbort);
          waiting.delete(id);
          resolve(answer);
        });
        waiters.notify(turn.turnId);
      });
    },

    async answer(questionId, answer) {
      const now = ctx.clock.now();
      const answered = await ctx.stores.transaction(async (stores) => {
        const record = await stores.questions.answerBlockingQuestion({ id: questionId, answer, at: now });
        if (record) {
          const session = await stores.sessions.getSession(record.sessionId);
          await recordQuestionAnswered(
            { stores, ids: ctx.ids, relayName: ctx.relayName },
            {
              id: record.id,
              text: record.text,
              answer: record.answer,
              choice: record.choices?.[0] ?? null,
            },
            { id: record.sessionId, title: session?.title ?? "" },
            now,
            ctx.relayName,
          );
        }
        return record;
      });
      if (!answered) {
        return false;
      }
      const here = deliver(answered);
      waiters.notify(answered.turnId);
      return { turnId: answered.turnId, elsewhere: !here };
    },

    async recheck() {
      for (const questionId of [...waiting.keys()]) {
        const record = await questions.getBlockingQuestion(questionId);
        if (record?.status === "answered") {
          deliver(record);
        }
      }
    },

    async answeredElsewhere(questionId) {
      const record = waiting.has(questionId) ? await questions.getBlockingQuestion(questionId) : null;
      return record !== null && record.status === "answered" && deliver(record);
    },

    async pending(sessionId, turnId) {
      const records = await questions.listBlockingQuestions({ sessionId, status: "pending" });
      return records.filter((q) => turnId === undefined || q.turnId === turnId).map(toPendingQuestionView);
    },

    async endOfTurn(turnId) {
      await questions.endBlockingQuestionsOfTurn({ turnId, at: ctx.clock.now() });
    },
  };
}
