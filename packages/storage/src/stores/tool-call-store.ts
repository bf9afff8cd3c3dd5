import type { ToolCallRecord, ToolCallStore } from "@oar/engine";
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../database";
import { sessions, toolCalls } from "../tables";
import { instantParam, toMs } from "./rows";

type ToolCallRow = typeof toolCalls.$inferSelect;

function toToolCall(row: ToolCallRow): ToolCallRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    action: row.action,
    relay: row.relay,
    targetSession: row.targetSession,
    ok: row.ok,
    code: row.code,
    summary: row.summary,
    createdAt: toMs(row.createdAt),
  };
}

export function createToolCallStore(db: Database): ToolCallStore {
  return {
    async recordToolCalls(calls) {
      if (calls.length === 0) {
        return;
      }
      const rows = calls.map(
        (
          call,
          n,
        ) => sql`(${n}::int, ${call.id}::text, ${call.sessionId}::text, ${call.action}::text, ${call.relay}::text,
          ${call.targetSession}::text, ${call.ok}::boolean, ${call.code}::text, ${call.summary}::text,
          ${instantParam(call.createdAt)})`,
      );
      // One statement for the batch, in its order (the sequence breaks ties of the same instant),
      // and only the calls of live sessions: a call that ends after its session was deleted leaves no row.
      // A call already kept is left as it is: a batch written again after its answer was lost.
      await db.execute(sql`
        insert into ${toolCalls} (id, session_id, action, relay, target_session, ok, code, summary, created_at)
        select v.id, v.session_id, v.action, v.relay, v.target_session, v.ok, v.code, v.summary, v.created_at
        from (values ${sql.join(rows, sql`, `)})
          as v (n, id, session_id, action, relay, target_session, ok, code, summary, created_at)
        where exists (
          select 1 from ${sessions} where ${sessions.id} = v.session_id and ${sessions.deletedAt} is null
        )
        order by v.n
        on conflict (id) do nothing`);
    },

    async listToolCalls(sessionId, { limit }) {
      if (limit <= 0) {
        return [];
      }
      const rows = await db
        .select()
        .from(toolCalls)
        .where(eq(toolCalls.sessionId, sessionId))
        .orderBy(desc(toolCalls.createdAt), desc(toolCalls.seq))
        .limit(limit);
      return rows.reverse().map(toToolCall);
    },

    async deleteToolCallsOf(sessionId) {
      const deleted = await db
        .delete(toolCalls)
        .where(eq(toolCalls.sessionId, sessionId))
        .returning({ id: toolCalls.id });
      return deleted.length;
    },
  };
}
