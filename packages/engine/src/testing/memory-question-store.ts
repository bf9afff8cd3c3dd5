import { type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { BlockingQuestionRecord, QuestionStore } from "../ports/question-store";

/** In-memory QuestionStore for tests; it passes the same contract suite as @oar/storage. */
export function createMemoryQuestionStore(): QuestionStore & Snapshotting {
  // Insertion order stands in for the database's sequence column.
  const questions = new Map<string, BlockingQuestionRecord>();
  return {
    snapshot: () => snapshotOf(questions),
    async createBlockingQuestion(input) {
      if (questions.has(input.id)) {
        throw new Error(`A question with id ${input.id} already exists.`);
      }
      const record: BlockingQuestionRecord = {
        ...input,
        options: [...input.options],
        status: "pending",
        answer: null,
        choices: null,
        answeredAt: null,
      };
      questions.set(record.id, record);
      return record;
    },
    async getBlockingQuestion(id) {
      return questions.get(id) ?? null;
    },
    async listBlockingQuestions({ sessionId, status }) {
      return [...questions.values()].filter(
        (q) =>
          (sessionId === undefined || q.sessionId === sessionId) &&
          (status === undefined || q.status === status),
      );
    },
    async answerBlockingQuestion({ id, answer, at }) {
      const current = questions.get(id);
      if (current?.status !== "pending") {
        return null;
      }
      const answered: BlockingQuestionRecord = {
        ...current,
        status: "answered",
        answer: answer.answer ?? null,
        choices: answer.choices === undefined ? null : [...answer.choices],
        answeredAt: at,
      };
      questions.set(id, answered);
      return answered;
    },
    async endBlockingQuestionsOfTurn({ turnId }) {
      let ended = 0;
      for (const question of questions.values()) {
        if (question.turnId === turnId && question.status === "pending") {
          questions.set(question.id, { ...question, status: "ended" });
          ended++;
        }
      }
      return ended;
    },
  };
}
