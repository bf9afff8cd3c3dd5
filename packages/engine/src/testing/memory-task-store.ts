import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { TaskRecord, TaskStore } from "../ports/task-store";

/** The memory tasks, with their rows by id for the memory retention store to prune. */
export interface MemoryTaskStore extends TaskStore, Snapshotting {
  readonly rows: Map<string, TaskRecord>;
}

export function createMemoryTaskStore(): MemoryTaskStore {
  const tasks = new Map<string, TaskRecord>();
  const oldestFirst = (list: TaskRecord[]) =>
    list.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id));
  return refusingLikePostgres("TaskStore", {
    rows: tasks,
    snapshot: () => snapshotOf(tasks),
    async insertTask(input) {
      if (tasks.has(input.id)) {
        throw new Error(`A task ${input.id} is already stored.`);
      }
      const record: TaskRecord = {
        ...input,
        status: "running",
        exitCode: null,
        counts: null,
        lastOutputAt: null,
        endedAt: null,
      };
      tasks.set(record.id, record);
      return record;
    },
    async getTask(id) {
      return tasks.get(id) ?? null;
    },
    async listTasksOfSessions(sessionIds, { endedSince }) {
      const wanted = new Set(sessionIds);
      return oldestFirst(
        [...tasks.values()].filter(
          (task) =>
            wanted.has(task.sessionId) &&
            (task.endedAt === null || (endedSince !== null && task.endedAt >= endedSince)),
        ),
      );
    },
    async listRunningTasks(options = {}) {
      return oldestFirst(
        [...tasks.values()].filter(
          (task) =>
            task.status === "running" && (options.runner === undefined || task.runner === options.runner),
        ),
      );
    },
    async endTask({ id, status, exitCode, endedAt }) {
      const task = tasks.get(id);
      if (task?.status !== "running") {
        return null;
      }
      const ended: TaskRecord = { ...task, status, exitCode, endedAt };
      tasks.set(id, ended);
      return ended;
    },
    async noteOutput(id, { at, counts }) {
      const task = tasks.get(id);
      if (task?.status === "running") {
        tasks.set(id, { ...task, lastOutputAt: at, ...(counts === undefined ? {} : { counts }) });
      }
    },
    async recordPid(id, pid) {
      const task = tasks.get(id);
      if (task) {
        tasks.set(id, { ...task, pid });
      }
    },
    async listExpiredOutputs({ endedBefore, limit, host }) {
      const here = (task: TaskRecord) => host === undefined || task.host === null || task.host === host;
      return [...tasks.values()]
        .filter(
          (task) =>
            task.outputPath !== null && task.endedAt !== null && task.endedAt < endedBefore && here(task),
        )
        .sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0))
        .slice(0, limit);
    },
    async forgetOutput(id) {
      const task = tasks.get(id);
      if (task) {
        tasks.set(id, { ...task, outputPath: null });
      }
    },
  });
}
