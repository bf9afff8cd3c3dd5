import { groupBy, toIso } from "@oar/core";
import type { TaskStall, TaskSummary } from "@oar/schema";
import { taskType } from "../outbox/outbox";
import type { EngineDeps } from "../ports/engine-deps";
import type { TaskRecord } from "../ports/task-store";
import { readSettings } from "../settings/settings";
import { TASK_OUTPUT_KEPT_MS } from "./task-host";

const MINUTE_MS = 60_000;

/** The output times this process knows fresher than the rows (the runtime's, for the tasks it runs). */
export interface TaskOutputTimes {
  taskLastOutputAt(taskId: string): number | null | undefined;
}

/** What a task view needs besides the row: now, the relay's quiet setting, this process's fresher output times. */
export interface TaskViewContext {
  readonly now: number;
  readonly quietAfterMinutes: number;
  readonly runtime: TaskOutputTimes;
}

export async function taskViewContext(deps: EngineDeps, runtime: TaskOutputTimes): Promise<TaskViewContext> {
  return {
    now: deps.clock.now(),
    quietAfterMinutes: (await readSettings(deps.stores.settings)).quietAfterMinutes,
    runtime,
  };
}

/** When a running task last wrote output (its start, before it wrote any). */
function lastOutput(task: TaskRecord, view: TaskViewContext): number {
  return view.runtime.taskLastOutputAt(task.id) ?? task.lastOutputAt ?? task.startedAt;
}

/** R-RTO-03: minutes since a running task's last output, quiet past the relay's setting. */
export function taskStall(task: TaskRecord, view: TaskViewContext): TaskStall {
  const since = lastOutput(task, view);
  const minutes = Math.max(0, Math.floor((view.now - since) / MINUTE_MS));
  return {
    minutes,
    since: toIso(since),
    quiet: minutes >= view.quietAfterMinutes,
    quietAfterMinutes: view.quietAfterMinutes,
  };
}

/** A task as list_sessions and read_session show it (R-LSES-03, R-RSES-05). */
export function taskSummary(task: TaskRecord, view: TaskViewContext): TaskSummary {
  const stall = task.status === "running" && task.kind !== "subagent" ? taskStall(task, view) : null;
  return {
    taskId: task.id,
    description: task.description,
    type: taskType(task.kind),
    status: task.status,
    startedAt: toIso(task.startedAt),
    exitCode: task.exitCode,
    output: task.outputPath !== null,
    ...(stall === null
      ? {}
      : {
          health: {
            minutesSinceOutput: stall.minutes,
            quiet: stall.quiet,
            quietAfterMinutes: stall.quietAfterMinutes,
            ...(task.counts === null ? {} : { counts: task.counts }),
          },
        }),
  };
}

/** The tasks of these sessions an agent may still read: running, or ended within the hour (R-RTO-01). */
/** The tasks the reads show: those running, and those that ended within TASK_OUTPUT_KEPT_MS. */
export function readableSince(deps: Pick<EngineDeps, "clock">): number {
  return deps.clock.now() - TASK_OUTPUT_KEPT_MS;
}

export async function readableTasks(
  deps: EngineDeps,
  sessionIds: readonly string[],
): Promise<Map<string, TaskRecord[]>> {
  const tasks = await deps.stores.tasks.listTasksOfSessions(sessionIds, { endedSince: readableSince(deps) });
  return groupBy(tasks, (task) => task.sessionId);
}
