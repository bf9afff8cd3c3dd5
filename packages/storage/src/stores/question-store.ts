import type {
  BlockingQuestionRecord,
  BlockingQuestionStatus,
  ClosedInboxStatus,
  InboxQuestionRecord,
  QuestionStore,
} from "@oar/engine";
import { and, asc, count, eq, gte, isNotNull, isNull, lte, min, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../database";
import { questions } from "../tables";
import { inList, mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type QuestionRow = typeof questions.$inferSelect;

// Blocking cards (`ask_user`) and Inbox questions (`ask`) share the table; each kind's methods
// see only their own rows.
const BLOCKING = eq(questions.kind, "ask_user");
const INBOX = eq(questions.kind, "ask");
const PENDING = eq(questions.status, "pending");
/** This relay's pending copies of questions kept on paired relays: those it polls. */
const PENDING_COPY = and(INBOX, PENDING, isNotNull(questions.keptOnRelay));

/**
 * When an Inbox question closed, kept as the blocking cards keep it: an owner's answer or dismissal
 * in `answered_at`, a withdrawal or an end in `ended_at`.
 */
function closedAtColumn(status: ClosedInboxStatus): "answeredAt" | "endedAt" {
  return status === "answered" || status === "dismissed" ? "answeredAt" : "endedAt";
}

/** Closed at `since` or later, whichever column holds it. */
function closedSince(since: number): SQL | undefined {
  const at = toDate(since);
  return or(gte(questions.answeredAt, at), gte(questions.endedAt, at));
}

/** Asked by `session` of this relay (a paired relay's conversation may have the same id). */
function askedBy(session: string): SQL | undefined {
  return and(eq(questions.askingSession, session), isNull(questions.askingRelay));
}

export function toInboxRecord(row: QuestionRow): InboxQuestionRecord {
  const closedAt = row.status === "pending" ? null : row[closedAtColumn(row.status)];
  return {
    id: row.id,
    askingRelay: row.askingRelay,
    askingSession: row.askingSession,
    sessionId: row.sessionId,
    text: row.text,
    options: row.options,
    recommendation: row.recommendation,
    detail: row.detail,
    status: row.status,
    answer: row.answer,
    // One choice, kept in the `choices` column the blocking cards use.
    choice: row.choices?.[0] ?? null,
    via: row.via,
    provenance: row.provenance ?? null,
    createdAt: toMs(row.createdAt),
    closedAt: toMsOrNull(closedAt),
    keptOnRelay: row.keptOnRelay,
    nextPollAt: toMsOrNull(row.nextPollAt),
  };
}

const inboxOldestFirst = [asc(questions.createdAt), asc(questions.seq)];

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
    async createInboxQuestion(input) {
      const [row] = await db
        .insert(questions)
        .values({
          id: input.id,
          kind: "ask",
          askingRelay: input.askingRelay,
          askingSession: input.askingSession,
          sessionId: input.sessionId,
          text: input.text,
          options: [...input.options],
          recommendation: input.recommendation,
          detail: input.detail,
          provenance: input.provenance,
          keptOnRelay: input.keptOnRelay ?? null,
          nextPollAt:
            input.nextPollAt === undefined || input.nextPollAt === null ? null : toDate(input.nextPollAt),
          status: "pending",
          createdAt: toDate(input.createdAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting question ${input.id} returned no row.`);
      }
      return toInboxRecord(row);
    },

    async getInboxQuestion(id) {
      const rows = await db
        .select()
        .from(questions)
        .where(and(eq(questions.id, id), INBOX));
      return mapFirst(rows, toInboxRecord);
    },

    async listInboxQuestions(options) {
      const parties =
        options.askingSession === undefined && options.sessionId === undefined
          ? undefined
          : or(
              options.askingSession === undefined ? undefined : askedBy(options.askingSession),
              options.sessionId === undefined ? undefined : eq(questions.sessionId, options.sessionId),
            );
      const rows = await db
        .select()
        .from(questions)
        .where(
          and(
            INBOX,
            parties,
            options.closedSince === null ? PENDING : or(PENDING, closedSince(options.closedSince)),
          ),
        )
        .orderBy(...inboxOldestFirst);
      return rows.map(toInboxRecord);
    },

    async countPendingInbox({ askingSession, sessionId }) {
      const [row] = await db
        .select({
          asked: count(
            sql`case when ${questions.askingSession} = ${askingSession} and ${questions.askingRelay} is null then 1 end`,
          ),
          concerning: count(sql`case when ${questions.sessionId} = ${sessionId} then 1 end`),
        })
        .from(questions)
        .where(and(INBOX, PENDING, or(askedBy(askingSession), eq(questions.sessionId, sessionId))));
      return { asked: row?.asked ?? 0, concerning: row?.concerning ?? 0 };
    },

    async closeInboxQuestion({ id, status, answer, choice, via, at }) {
      const rows = await db
        .update(questions)
        .set({
          status,
          answer: answer ?? null,
          choices: choice === undefined || choice === null ? null : [choice],
          via: via ?? null,
          [closedAtColumn(status)]: toDate(at),
          // A closed question is no longer polled.
          nextPollAt: null,
        })
        .where(and(eq(questions.id, id), INBOX, PENDING))
        .returning();
      return mapFirst(rows, toInboxRecord);
    },

    async endInboxQuestionsOf({ sessionIds, at }) {
      if (sessionIds.length === 0) {
        return [];
      }
      const rows = await db
        .update(questions)
        .set({ status: "ended", [closedAtColumn("ended")]: toDate(at), nextPollAt: null })
        .where(
          and(
            INBOX,
            PENDING,
            or(
              inList(questions.sessionId, sessionIds),
              and(inList(questions.askingSession, sessionIds), isNull(questions.askingRelay)),
            ),
          ),
        )
        .returning();
      return rows.map(toInboxRecord);
    },

    async moveInboxQuestions({ from, to }) {
      // One statement, so a question asked by `from` about itself counts once.
      const asked = sql`(${questions.askingSession} = ${from} and ${questions.askingRelay} is null)`;
      const rows = await db
        .update(questions)
        .set({
          askingSession: sql`case when ${asked} then ${to} else ${questions.askingSession} end`,
          sessionId: sql`case when ${questions.sessionId} = ${from} then ${to} else ${questions.sessionId} end`,
        })
        .where(and(INBOX, or(askedBy(from), eq(questions.sessionId, from))))
        .returning({ id: questions.id });
      return rows.length;
    },

    async claimDuePolls({ now, limit }) {
      if (limit <= 0) {
        return [];
      }
      // Another transaction's claimed copies are skipped, not waited for: two relay processes
      // polling at once each ask about their own.
      const rows = await db
        .select()
        .from(questions)
        .where(and(PENDING_COPY, lte(questions.nextPollAt, toDate(now))))
        .orderBy(asc(questions.nextPollAt), asc(questions.seq))
        .limit(limit)
        .for("update", { skipLocked: true });
      return rows.map(toInboxRecord);
    },

    async setNextPoll(id, at) {
      // A closed question is no longer polled.
      await db
        .update(questions)
        .set({ nextPollAt: toDate(at) })
        .where(and(eq(questions.id, id), INBOX, PENDING));
    },

    async nextPollAt() {
      const [row] = await db
        .select({ at: min(questions.nextPollAt) })
        .from(questions)
        .where(PENDING_COPY);
      return row?.at ? toMs(row.at) : null;
    },

    async endInboxQuestionsKeptOn({ relay, at }) {
      const rows = await db
        .update(questions)
        .set({ status: "ended", [closedAtColumn("ended")]: toDate(at), nextPollAt: null })
        .where(and(PENDING_COPY, eq(questions.keptOnRelay, relay)))
        .returning();
      return rows.map(toInboxRecord);
    },

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
