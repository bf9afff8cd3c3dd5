import type { QuestionStore } from "../ports/question-store";
import type { SessionHistory, SessionReadStore } from "../ports/session-read-store";
import type { SessionStore } from "../ports/session-store";
import type { TaskStore } from "../ports/task-store";

/** The reads composed of the memory stores' own: what the contract holds every store to. */
export function createMemorySessionReadStore(parts: {
  readonly sessions: SessionStore;
  readonly questions: QuestionStore;
  readonly tasks: TaskStore;
  /** The session stores' own history read (`createMemorySessionStores().history`). */
  readonly history: (id: string) => SessionHistory | null;
}): SessionReadStore {
  return {
    async readSession({ id, last, tasksEndedSince }) {
      const session = await parts.sessions.getSession(id);
      if (session === null) {
        return null;
      }
      return {
        session,
        messages: await parts.sessions.listMessages(id, { last }),
        inboxQuestions: await parts.questions.listInboxQuestions({ sessionId: id, closedSince: null }),
        tasks: await parts.tasks.listTasksOfSessions([id], { endedSince: tasksEndedSince }),
      };
    },
    async readSessionHistory(id) {
      return parts.history(id);
    },
    async listSessions({ scope, tasksEndedSince }) {
      const sessions = await parts.sessions.listSessions({ scope });
      const ids = sessions.map((session) => session.id);
      return { sessions, tasks: await parts.tasks.listTasksOfSessions(ids, { endedSince: tasksEndedSince }) };
    },
  };
}
