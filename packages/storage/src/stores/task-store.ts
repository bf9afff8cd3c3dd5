import type { JsonObject, TaskRecord, TaskStore } from "@oar/engine";
import type { TestCounts } from "@oar/schema";
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Database } from "../database";
import { tasks } from "../tables";
import { mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type TaskRow = typeof tasks.$inferSelect;

export function toTask(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    turnId: row.turnId,
    kind: row.kind,
    name: row.name,
    description: row.description,
    command: row.command,
    status: row.status,
    exitCode: row.exitCode,
    outputPath: row.outputPath,
    counts: row.counts as TestCounts | null,
    runner: row.runner,
    pid: row.pid,
    host: row.host,
    startedAt: toMs(row.startedAt),
    lastOutputAt: toMsOrNull(row.lastOutputAt),
    endedAt: toMsOrNull(row.endedAt),
  };
}

const oldestFirst = [asc(tasks.startedAt), asc(tasks.id)];

export function createTaskStore(db: Database): TaskStore {
  return {
    async insertTask(input) {
      const [row] = await db
        .insert(tasks)
        .values({ ...input, status: "running", startedAt: toDate(input.startedAt) })
        .returning();
      return toTask(row as TaskRow);
    },

    async getTask(id) {
      return mapFirst(await db.select().from(tasks).where(eq(tasks.id, id)), toTask);
    },

    async listTasksOfSessions(sessionIds, { endedSince }) {
      if (sessionIds.length === 0) {
        return [];
      }
      const rows = await db
        .select()
        .from(tasks)
        .where(
          and(
            inArray(tasks.sessionId, [...sessionIds]),
            endedSince === null
              ? isNull(tasks.endedAt)
              : or(isNull(tasks.endedAt), gte(tasks.endedAt, toDate(endedSince))),
          ),
        )
        .orderBy(...oldestFirst);
      return rows.map(toTask);
    },

    async listRunningTasks(options = {}) {
      const running = eq(tasks.status, "running");
      const rows = await db
        .select()
        .from(tasks)
        .where(options.runner === undefined ? running : and(running, eq(tasks.runner, options.runner)))
        .orderBy(...oldestFirst);
      return rows.map(toTask);
    },

    async endTask({ id, status, exitCode, endedAt }) {
      // Only a running row ends: the process that ends it first decides how it ended.
      const rows = await db
        .update(tasks)
        .set({ status, exitCode, endedAt: toDate(endedAt) })
        .where(and(eq(tasks.id, id), eq(tasks.status, "running")))
        .returning();
      return mapFirst(rows, toTask);
    },

    async noteOutput(id, { at, counts }) {
      await db
        .update(tasks)
        .set({
          lastOutputAt: toDate(at),
          ...(counts === undefined ? {} : { counts: counts as unknown as JsonObject | null }),
        })
        .where(and(eq(tasks.id, id), eq(tasks.status, "running")));
    },

    async recordPid(id, pid) {
      await db.update(tasks).set({ pid }).where(eq(tasks.id, id));
    },

    async listExpiredOutputs({ endedBefore, limit, host }) {
      const rows = await db
        .select()
        .from(tasks)
        .where(
          and(
            isNotNull(tasks.outputPath),
            isNotNull(tasks.endedAt),
            lt(tasks.endedAt, toDate(endedBefore)),
            host === undefined ? undefined : or(isNull(tasks.host), eq(tasks.host, host)),
          ),
        )
        .orderBy(asc(tasks.endedAt))
        .limit(limit);
      return rows.map(toTask);
    },

    async forgetOutput(id) {
      await db.update(tasks).set({ outputPath: null }).where(eq(tasks.id, id));
    },
  };
}
