import type { SessionReadStore } from "@oar/engine";
import { sql } from "drizzle-orm";
import type { Database } from "../database";
import { messages, questions, sessions, tasks } from "../tables";
import { toInboxRecord } from "./question-store";
import { fromJsonRows, instantParam, rawRows } from "./rows";
import { listedSessions, liveSession, toMessageRecord, toSessionRecord } from "./session-store";
import { toTask } from "./task-store";

/** A task that runs, or ended at `since` or later (TaskStore.listTasksOfSessions). */
const taskShown = (since: number) =>
  sql`(${tasks.endedAt} is null or ${tasks.endedAt} >= ${instantParam(since)})`;

/**
 * The most frequent reads in one statement each: every part is a subquery aggregated to JSON, so a
 * read_session costs one round trip and one plan where the ports' own reads cost four. The rows
 * are decoded by their tables' own column types, and ordered as the ports order them.
 */
export function createSessionReadStore(db: Database): SessionReadStore {
  return {
    async readSession({ id, last, tasksEndedSince }) {
      const [row] = await rawRows<Record<string, unknown>>(
        db,
        sql`select
          (select json_agg(s) from (select * from ${sessions} where ${liveSession(id)}) s) as session,
          (select json_agg(m order by m.seq) from (
            select * from ${messages} where ${messages.sessionId} = ${id}
            order by ${messages.seq} desc limit ${Math.max(0, last)}) m) as messages,
          (select json_agg(q order by q.created_at, q.seq) from (
            select * from ${questions}
            where ${questions.kind} = 'ask' and ${questions.status} = 'pending' and ${questions.sessionId} = ${id}) q
          ) as questions,
          (select json_agg(t order by t.started_at, t.id) from (
            select * from ${tasks} where ${tasks.sessionId} = ${id} and ${taskShown(tasksEndedSince)}) t
          ) as tasks`,
      );
      const [session] = fromJsonRows(sessions, row?.session ?? null);
      if (session === undefined) {
        return null;
      }
      return {
        session: toSessionRecord(session),
        messages: fromJsonRows(messages, row?.messages ?? null).map(toMessageRecord),
        inboxQuestions: fromJsonRows(questions, row?.questions ?? null).map(toInboxRecord),
        tasks: fromJsonRows(tasks, row?.tasks ?? null).map(toTask),
      };
    },

    async listSessions({ scope, tasksEndedSince }) {
      const [row] = await rawRows<Record<string, unknown>>(
        db,
        sql`with listed as (
            select ${sessions}.*,
              (select count(*)::int from ${messages} where ${messages.sessionId} = ${sessions.id}) as message_count
            from ${sessions} where ${listedSessions(scope)})
          select
            (select json_agg(l order by l.last_activity_at desc, l.created_at desc, l.id) from listed l) as sessions,
            (select json_agg(t order by t.started_at, t.id) from (
              select * from ${tasks}
              where ${tasks.sessionId} in (select id from listed) and ${taskShown(tasksEndedSince)}) t
            ) as tasks`,
      );
      const listed = (typeof row?.sessions === "string" ? JSON.parse(row.sessions) : row?.sessions) as
        | { message_count: number }[]
        | null;
      const counts = (listed ?? []).map((one) => one.message_count);
      return {
        sessions: fromJsonRows(sessions, listed).map((one, n) => ({
          ...toSessionRecord(one),
          messageCount: counts[n] ?? 0,
        })),
        tasks: fromJsonRows(tasks, row?.tasks ?? null).map(toTask),
      };
    },
  };
}
