import type { BlockingQuestionRecord, BlockingQuestionStatus, QuestionStore } from "@oar/engine";
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../database";
import { questions } from "../tables";
import { mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type QuestionRow = typeof questions.$inferSelect;

// This port covers the blocking cards only; `ask` rows (Inbox questions) share the table.
const BLOCKING = eq(questions.kind, "ask_user");

function toBlockingStatus(row: QuestionRow): BlockingQuestionStatus {
  if (row.status === "pending" || row.status === "answered") {
    return row.status;
  }
  return "ended";
}

function toQuestionRecord(row: QuestionRow): BlockingQuestionRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    turnId: row.turnId ?? "",
    text: row.text,
    options: row.options,
    status: toBlockingStatus(row),
    answer: row.answer,
    choices: row.choices ?? null,
    createdAt: toMs(row.createdAt),
    answeredAt: toMsOrNull(row.answeredAt),
  };
}

export function createQuestionStore(db: Database): QuestionStore {
  return {
    async createBlockingQuestion(input) {
      const [row] = await db
        .insert(questions)
        .values({
          id: input.id,
          kind: "ask_user",
          // A blocking card is asked by the session's own agent, about itself.
          askingSession: input.sessionId,
          sessionId: input.sessionId,
          turnId: input.turnId,
          text: input.text,
          options: [...input.options],
          status: "pending",
          createdAt: toDate(input.createdAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting question ${input.id} returned no row.`);
      }
      return toQuestionRecord(row);
    },

    async getBlockingQuestion(id) {
      const rows = await db
        .select()
        .from(questions)
        .where(and(eq(questions.id, id), BLOCKING));
      return mapFirst(rows, toQuestionRecord);
    },

    async listBlockingQuestions({ sessionId, status }) {
      const rows = await db
        .select()
        .from(questions)
        .where(
          and(
            BLOCKING,
            sessionId === undefined ? undefined : eq(questions.sessionId, sessionId),
            status === undefined ? undefined : eq(questions.status, status),
          ),
        )
        .orderBy(asc(questions.seq));
      return rows.map(toQuestionRecord);
    },

    async answerBlockingQuestion({ id, answer, at }) {
      const rows = await db
        .update(questions)
        .set({
          status: "answered",
          answer: answer.answer ?? null,
          choices: answer.choices === undefined ? null : [...answer.choices],
          answeredAt: toDate(at),
        })
        .where(and(eq(questions.id, id), BLOCKING, eq(questions.status, "pending")))
        .returning();
      return mapFirst(rows, toQuestionRecord);
    },

    async endBlockingQuestionsOfTurn({ turnId, at }) {
      const rows = await db
        .update(questions)
        .set({ status: "ended", endedAt: toDate(at) })
        .where(and(eq(questions.turnId, turnId), BLOCKING, eq(questions.status, "pending")))
        .returning({ id: questions.id });
      return rows.length;
    },
  };
}
