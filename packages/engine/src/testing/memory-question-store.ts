import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { BlockingQuestionRecord, InboxQuestionRecord, QuestionStore } from "../ports/question-store";

/** In-memory QuestionStore for tests; it passes the same contract suite as @oar/storage. */
export function createMemoryQuestionStore(): QuestionStore & Snapshotting {
  // Insertion order stands in for the database's sequence column. The two kinds share one id
  // space, as they share one table.
  const blocking = new Map<string, BlockingQuestionRecord>();
  const inbox = new Map<string, InboxQuestionRecord>();
  const claimId = (id: string) => {
    if (blocking.has(id) || inbox.has(id)) {
      throw new Error(`A question with id ${id} already exists.`);
    }
  };
  const pending = () => [...inbox.values()].filter((q) => q.status === "pending");
  // This relay's copies of questions kept on paired relays, still polled.
  const pendingCopies = () => pending().filter((q) => q.keptOnRelay !== null);
  /** Closes a question: it is no longer polled. */
  const close = (q: InboxQuestionRecord, changes: Partial<InboxQuestionRecord>): InboxQuestionRecord => {
    const closed: InboxQuestionRecord = { ...q, ...changes, nextPollAt: null };
    inbox.set(q.id, closed);
    return closed;
  };
  // Only this relay's conversations ask as `askingSession` alone.
  const askedBy = (q: InboxQuestionRecord, session: string) =>
    q.askingRelay === null && q.askingSession === session;
  return refusingLikePostgres("QuestionStore", {
    snapshot: () => snapshotOf(blocking, inbox),
    async createInboxQuestion(input) {
      claimId(input.id);
      const record: InboxQuestionRecord = {
        ...input,
        options: [...input.options],
        status: "pending",
        answer: null,
        choice: null,
        via: null,
        closedAt: null,
        keptOnRelay: input.keptOnRelay ?? null,
        nextPollAt: input.nextPollAt ?? null,
      };
      inbox.set(record.id, record);
      return record;
    },
    async getInboxQuestion(id) {
      return inbox.get(id) ?? null;
    },
    async listInboxQuestions({ askingSession, sessionId, closedSince }) {
      const matches = (q: InboxQuestionRecord) =>
        askingSession === undefined && sessionId === undefined
          ? true
          : (askingSession !== undefined && askedBy(q, askingSession)) ||
            (sessionId !== undefined && q.sessionId === sessionId);
      return [...inbox.values()]
        .filter(
          (q) =>
            matches(q) &&
            (q.status === "pending" ||
              (closedSince !== null && q.closedAt !== null && q.closedAt >= closedSince)),
        )
        .sort((a, b) => a.createdAt - b.createdAt);
    },
    async countPendingInbox({ askingSession, sessionId }) {
      const open = pending();
      return {
        asked: open.filter((q) => askedBy(q, askingSession)).length,
        concerning: open.filter((q) => q.sessionId === sessionId).length,
      };
    },
    async closeInboxQuestion({ id, status, answer, choice, via, at }) {
      const current = inbox.get(id);
      if (current?.status !== "pending") {
        return null;
      }
      return close(current, {
        status,
        answer: answer ?? null,
        choice: choice ?? null,
        via: via ?? null,
        closedAt: at,
      });
    },
    async endInboxQuestionsOf({ sessionIds, at }) {
      const ended: InboxQuestionRecord[] = [];
      for (const q of pending()) {
        if (sessionIds.some((session) => q.sessionId === session || askedBy(q, session))) {
          ended.push(close(q, { status: "ended", closedAt: at }));
        }
      }
      return ended;
    },
    async moveInboxQuestions({ from, to }) {
      let moved = 0;
      for (const q of inbox.values()) {
        const asked = askedBy(q, from);
        if (asked || q.sessionId === from) {
          inbox.set(q.id, {
            ...q,
            askingSession: asked ? to : q.askingSession,
            sessionId: q.sessionId === from ? to : q.sessionId,
          });
          moved++;
        }
      }
      return moved;
    },
    async claimDuePolls({ now, limit }) {
      // A stable sort: copies due at the same time keep their insertion order.
      return pendingCopies()
        .filter((q) => q.nextPollAt !== null && q.nextPollAt <= now)
        .sort((a, b) => (a.nextPollAt ?? 0) - (b.nextPollAt ?? 0))
        .slice(0, Math.max(limit, 0));
    },
    async setNextPoll(id, at) {
      const current = inbox.get(id);
      // A closed question is no longer polled.
      if (current?.status === "pending") {
        inbox.set(id, { ...current, nextPollAt: at });
      }
    },
    async nextPollAt() {
      let earliest: number | null = null;
      for (const q of pendingCopies()) {
        if (q.nextPollAt !== null && (earliest === null || q.nextPollAt < earliest)) {
          earliest = q.nextPollAt;
        }
      }
      return earliest;
    },
    async endInboxQuestionsKeptOn({ relay, at }) {
      return pendingCopies()
        .filter((q) => q.keptOnRelay === relay)
        .map((q) => close(q, { status: "ended", closedAt: at }));
    },

    async createBlockingQuestion(input) {
      claimId(input.id);
      const record: BlockingQuestionRecord = {
        ...input,
        options: [...input.options],
        status: "pending",
        answer: null,
        choices: null,
        answeredAt: null,
      };
      blocking.set(record.id, record);
      return record;
    },
    async getBlockingQuestion(id) {
      return blocking.get(id) ?? null;
    },
    async listBlockingQuestions({ sessionId, status }) {
      return [...blocking.values()].filter(
        (q) =>
          (sessionId === undefined || q.sessionId === sessionId) &&
          (status === undefined || q.status === status),
      );
    },
    async answerBlockingQuestion({ id, answer, at }) {
      const current = blocking.get(id);
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
      blocking.set(id, answered);
      return answered;
    },
    async endBlockingQuestionsOfTurn({ turnId }) {
      let ended = 0;
      for (const question of blocking.values()) {
        if (question.turnId === turnId && question.status === "pending") {
          blocking.set(question.id, { ...question, status: "ended" });
          ended++;
        }
      }
      return ended;
    },
  });
}
