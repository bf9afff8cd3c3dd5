import { toIso } from "@oar/core";
import type { QuestionEntry, SessionRef } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
import type { InboxQuestionRecord } from "../ports/question-store";

/** R-LQ-01: closed questions stay listed for a day. */
export const CLOSED_QUESTIONS_SHOWN_MS = 86_400_000;

/** A non-blocking question as list_questions shows it (R-LQ-01, GAP-19's statuses). */
export function questionEntry(
  question: InboxQuestionRecord,
  titles: ReadonlyMap<string, string>,
): QuestionEntry {
  return {
    question_id: question.id,
    session: { id: question.sessionId, title: titles.get(question.sessionId) ?? "" },
    question: question.text,
    ...(question.options.length === 0 ? {} : { options: [...question.options] }),
    ...(question.recommendation === null ? {} : { recommendation: question.recommendation }),
    ...(question.detail === null ? {} : { detail: question.detail }),
    status: question.status,
    answer: question.answer,
    choice: question.choice,
    ...(question.via === null ? {} : { via: question.via }),
    askedAt: toIso(question.createdAt),
    closedAt: question.closedAt === null ? null : toIso(question.closedAt),
  };
}

/** A question in the owner's Inbox: what to answer, about which session, asked by whom. */
export interface InboxItem extends QuestionEntry {
  readonly askedBy: SessionRef & { readonly relay: string | null };
  /** The paired relay that keeps it, for a question this relay's agent asked there (answered there). */
  readonly keptOn: string | null;
}

export function inboxItem(question: InboxQuestionRecord, titles: ReadonlyMap<string, string>): InboxItem {
  return {
    ...questionEntry(question, titles),
    askedBy: {
      id: question.askingSession,
      title: question.askingRelay === null ? (titles.get(question.askingSession) ?? "") : "",
      relay: question.askingRelay,
    },
    keptOn: question.keptOnRelay,
  };
}

/** The titles of the sessions these questions are about or asked from (this relay's). */
export async function questionTitles(
  stores: Pick<EngineStores, "sessions">,
  questions: readonly InboxQuestionRecord[],
): Promise<Map<string, string>> {
  const ids = [
    ...new Set(
      questions.flatMap((q) => (q.askingRelay === null ? [q.sessionId, q.askingSession] : [q.sessionId])),
    ),
  ];
  const sessions = await stores.sessions.getSessions(ids);
  return new Map(sessions.map((s) => [s.id, s.title]));
}
