import type { SessionReadStore } from "@oar/engine";
import { asc, desc, sql } from "drizzle-orm";
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
 * The most frequent reads in one statement each, where the ports' own reads cost four (read) or two
 * (list): the parts are subqueries aggregated to JSON, decoded by their tables' own column types
 * and ordered as the ports order them.
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
      // The sessions come as rows (their columns decoded by the driver), each with its tasks as
      // JSON: one statement, without a 100-row JSON document to build and parse. The subqueries
      // name the outer table in full: drizzle leaves a single-table select's columns unqualified.
      const shown = sql`(t.ended_at is null or t.ended_at >= ${instantParam(tasksEndedSince)})`;
      const rows = await db
        .select({
          session: sessions,
          messageCount: sql<number>`(select count(*)::int from "messages" m where m.session_id = "sessions"."id")`,
          tasks: sql<unknown>`(select json_agg(t order by t.started_at, t.id) from "tasks" t
            where t.session_id = "sessions"."id" and ${shown})`,
        })
        .from(sessions)
        .where(listedSessions(scope))
        .orderBy(desc(sessions.lastActivityAt), desc(sessions.createdAt), asc(sessions.id));
      return {
        sessions: rows.map((row) => ({ ...toSessionRecord(row.session), messageCount: row.messageCount })),
        tasks: rows
          .flatMap((row) => fromJsonRows(tasks, row.tasks).map(toTask))
          .sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      };
    },
  };
}
