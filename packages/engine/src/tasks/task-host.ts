import { join } from "node:path";
import { type Clock, type IdGenerator, type Logger, RelayError } from "@oar/core";
import { recordTaskEnded, recordTaskStarted } from "../outbox/outbox";
import type { EngineStores } from "../ports/engine-stores";
import type { TaskEnd, TaskSpec } from "../ports/provider";
import type { TurnRunner } from "../ports/session-store";
import type { TaskRecord } from "../ports/task-store";
import { errorMessage } from "../shared/error-message";
import { readFileEnd } from "./output-file";
import { runningTasksOf, settleSessionState } from "./session-state";
import { type ProcessExit, type ShellProcess, startShellProcess } from "./task-process";
import { testCounts } from "./test-counts";

/** A session's running tasks, at most (each a process group of the relay's machine). */
export const MAX_RUNNING_TASKS_PER_SESSION = 20;
/** A task's output stays readable this long after it ended (R-RTO-01, R-RTO-07). */
export const TASK_OUTPUT_KEPT_MS = 3_600_000;
/** How often a running task's last output time (and test counts) is written to its row. */
export const OUTPUT_NOTE_MS = 30_000;
/** Where test counts are looked for when the output is noted: a runner's summary is at the end. */
const COUNTS_READ_BYTES = 64 * 1024;
/** How often a wait for a task run by another relay process looks at its row. */
const FOREIGN_WAIT_POLL_MS = 1_000;

export const TASK_LOST_MESSAGE = "The relay restarted while this task was running, so it was ended.";

/** What this process runs of a task. */
interface LiveTask {
  readonly record: TaskRecord;
  readonly process: ShellProcess | null;
  /** Set when the relay ends it (stop, kill, archive, delete, shutdown): how its end is recorded. */
  endedBy: "stopped" | "failed" | null;
  lastOutputAt: number | null;
  lastNotedAt: number;
  readonly ended: Promise<TaskEnd>;
  readonly cancel: () => void;
}

export interface TaskHost {
  start(turn: { readonly sessionId: string; readonly turnId: string }, spec: TaskSpec): Promise<string>;
  wait(sessionId: string, name: string, signal: AbortSignal): Promise<TaskEnd>;
  /** Ends the session's tasks run here (stop, kill, archive, delete): `stopped`, their groups gone; how many. */
  endSession(sessionId: string): Promise<number>;
  /** The last output time this process saw of a task it runs (fresher than the row's). */
  lastOutputAt(taskId: string): number | null | undefined;
  /** Tasks of a lost process end `failed`, in the caller's transaction; returns them. */
  failLost(
    stores: EngineStores,
    select: { readonly runner?: string | null; readonly at: number },
  ): Promise<TaskRecord[]>;
  /** Removes output files past their hour. */
  sweep(): Promise<void>;
  /** At shutdown: every task here ends (`failed`, the relay went away) and its group is killed. */
  closeAll(): Promise<void>;
}

export interface TaskHostOptions {
  /** Where output files go (under the data dir, DESIGN §3). */
  readonly outputDir: string;
  /** Ends a group a relay before this one left running (a real kill; tests may observe it). */
  readonly killLost: (pid: number, taskId: string) => Promise<boolean>;
  /** Removes a task's output file; fine when it is gone already. */
  readonly removeFile: (path: string) => Promise<void>;
  /** The environment tasks start from; absent, the relay's own. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Runs a write that must land, again while the database does not answer (the runtime's
   * untilItLands); `undefined` when the relay closed first. Absent: once.
   */
  readonly retryWrite?: <T>(what: string, attempt: () => Promise<T>) => Promise<T | undefined>;
}

/** Ends tasks this process runs (their groups killed, their timers cancelled), recorded as `how`. */
async function endAll(tasks: readonly LiveTask[], how: "stopped" | "failed"): Promise<void> {
  await Promise.all(
    tasks.map(async (task) => {
      task.endedBy = how;
      if (task.process) {
        await task.process.kill();
      } else {
        task.cancel();
      }
      await task.ended;
    }),
  );
}

function endOf(record: TaskRecord): TaskEnd {
  return {
    taskId: record.id,
    status: record.status === "running" ? "failed" : record.status,
    exitCode: record.exitCode,
  };
}

/** What the task host works with, of the runtime that hosts it. */
export interface TaskHostContext {
  readonly stores: EngineStores;
  readonly relayName: string;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** The lease turns are claimed under now: a task records it, so another process knows whose it is. */
  readonly runner: () => TurnRunner | undefined;
  /** This process (its pid space, RunnerProcess.host): a task records where its group and output are. */
  readonly runnerProcess?: { readonly host: string } | undefined;
}

export function createTaskHost(ctx: TaskHostContext, options: TaskHostOptions): TaskHost {
  const live = new Map<string, LiveTask>();
  const retryWrite = options.retryWrite ?? ((_what, attempt) => attempt());
  const writer = (stores: EngineStores) => ({ stores, ids: ctx.ids, relayName: ctx.relayName });

  /** The task's end and its event are one change; the session's state follows. */
  const recordEnd = async (task: LiveTask, exit: ProcessExit | null): Promise<TaskRecord> => {
    const how = task.endedBy;
    const status = how ?? (exit === null || exit.code === 0 ? "finished" : "failed");
    const exitCode = exit?.code ?? null;
    const endedAt = ctx.clock.now();
    // Until it lands: an end lost to an outage would leave the task running in its row for as
    // long as this process lives, and the session could not start another task of that name.
    const ended = await retryWrite("ending a task", () =>
      ctx.stores.transaction(async (stores) => {
        const record = await stores.tasks.endTask({ id: task.record.id, status, exitCode, endedAt });
        if (record === null) {
          return null;
        }
        const session = await stores.sessions.getSession(record.sessionId);
        // The outbox last (OUTBOX_LAST in ../outbox/outbox).
        await settleSessionState(stores, record.sessionId);
        await recordTaskEnded(writer(stores), record, { id: record.sessionId, title: session?.title ?? "" });
        return record;
      }),
    );
    if (ended === undefined) {
      // The relay closed first: the next start ends it as lost.
      return { ...task.record, status, exitCode };
    }
    return ended ?? (await ctx.stores.tasks.getTask(task.record.id)) ?? { ...task.record, status, exitCode };
  };

  const finish = (task: LiveTask, exit: ProcessExit | null): Promise<TaskEnd> =>
    recordEnd(task, exit)
      .then(endOf)
      .catch((error: unknown) => {
        ctx.logger.error("A task's end could not be written.", {
          task: task.record.id,
          error: errorMessage(error),
        });
        return { taskId: task.record.id, status: "failed" as const, exitCode: exit?.code ?? null };
      })
      .finally(() => live.delete(task.record.id));

  const noteOutput = (task: LiveTask) => {
    const now = ctx.clock.now();
    task.lastOutputAt = now;
    if (now - task.lastNotedAt < OUTPUT_NOTE_MS) {
      return;
    }
    task.lastNotedAt = now;
    void (async () => {
      const path = task.record.outputPath;
      const end = path === null ? null : await readFileEnd(path, COUNTS_READ_BYTES);
      const counts = end === null ? undefined : testCounts(end.text.split("\n"));
      await ctx.stores.tasks.noteOutput(task.record.id, { at: now, ...(counts ? { counts } : {}) });
    })().catch((error: unknown) =>
      ctx.logger.warn("A task's output time could not be written.", {
        task: task.record.id,
        error: errorMessage(error),
      }),
    );
  };

  const checkStart = async (sessionId: string, spec: TaskSpec) => {
    const running = await runningTasksOf(ctx.stores, sessionId);
    if (running.some((task) => task.name === spec.name)) {
      throw new RelayError(
        "REMOTE_RELAY_INVALID_INPUT",
        `Session ${sessionId} already runs a task named "${spec.name}"; wait for it or give the new one another name.`,
      );
    }
    if (running.length >= MAX_RUNNING_TASKS_PER_SESSION) {
      throw new RelayError(
        "REMOTE_RELAY_INVALID_INPUT",
        `Session ${sessionId} already runs ${running.length} background tasks, the most a session may run at once; wait for one to end.`,
      );
    }
    const session = await ctx.stores.sessions.getSession(sessionId);
    if (!session) {
      throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No session ${sessionId} on this relay.`);
    }
    return session;
  };

  return {
    async start(turn, spec) {
      const session = await checkStart(turn.sessionId, spec);
      const taskId = ctx.ids.next("task");
      const startedAt = ctx.clock.now();
      const outputPath = spec.kind === "shell" ? join(options.outputDir, `${taskId}.log`) : null;
      let cancelTimer = () => {};
      const task: LiveTask = {
        record: {
          id: taskId,
          sessionId: turn.sessionId,
          turnId: turn.turnId,
          kind: spec.kind,
          name: spec.name,
          description: spec.description ?? (spec.kind === "shell" ? spec.command : spec.name),
          command: spec.kind === "shell" ? spec.command : null,
          status: "running",
          exitCode: null,
          outputPath,
          counts: null,
          runner: ctx.runner()?.lease ?? null,
          pid: null,
          host: ctx.runnerProcess?.host ?? null,
          startedAt,
          lastOutputAt: null,
          endedAt: null,
        },
        process: null,
        endedBy: null,
        lastOutputAt: null,
        lastNotedAt: startedAt,
        ended: Promise.resolve({ taskId, status: "failed", exitCode: null }),
        cancel: () => cancelTimer(),
      };
      // The row first, then the process: a relay killed in between leaves a row that recovery
      // ends, never a command that ran without one (the soak's ledger counts every run).
      const { status: _s, exitCode: _e, counts: _c, lastOutputAt: _l, endedAt: _d, ...row } = task.record;
      let stored: TaskRecord;
      try {
        stored = await ctx.stores.transaction(async (stores) => {
          const inserted = await stores.tasks.insertTask(row);
          await settleSessionState(stores, turn.sessionId);
          await recordTaskStarted(writer(stores), inserted, session);
          return inserted;
        });
      } catch (error) {
        // A link cut as the commit went through leaves the row written though this call failed:
        // ended as failed (a no-op when nothing was written), it does not stay running for as long
        // as this process lives, holding the task's name (the soak's ledger, with fast cuts).
        task.endedBy = "failed";
        await finish(task, null);
        throw error;
      }
      Object.assign(task, { record: stored });
      let process: ShellProcess | null = null;
      if (spec.kind === "shell") {
        try {
          process = await startShellProcess({
            taskId,
            command: spec.command,
            cwd: session.cwd ?? options.outputDir,
            outputPath: outputPath as string,
            env: { OAR_SESSION: turn.sessionId },
            ...(options.env === undefined ? {} : { baseEnv: options.env }),
            onOutput: () => noteOutput(task),
          });
        } catch (error) {
          // Recorded, so ended as recorded: failed, with its event.
          task.endedBy = "failed";
          await finish(task, null);
          throw error;
        }
        Object.assign(task, { process });
        const pid = process.pid;
        // Without it only the relay's instance mark finds the group after a crash: still ended.
        await ctx.stores.tasks.recordPid(taskId, pid).catch((error: unknown) =>
          ctx.logger.warn("A task's process group could not be written.", {
            task: taskId,
            error: errorMessage(error),
          }),
        );
        Object.assign(task, { record: { ...stored, pid } });
      }
      let ended: Promise<TaskEnd>;
      if (process !== null) {
        ended = process.exited.then((exit) => finish(task, exit));
      } else {
        const ms = spec.kind === "subagent" ? spec.ms : 0;
        ended = new Promise<TaskEnd>((resolve) => {
          const timer = ctx.clock.setTimeout(() => resolve(finish(task, null)), ms);
          cancelTimer = () => {
            ctx.clock.clearTimeout(timer);
            resolve(finish(task, null));
          };
        });
      }
      Object.assign(task, { ended });
      live.set(taskId, task);
      return taskId;
    },

    async wait(sessionId, name, signal) {
      const tasks = await ctx.stores.tasks.listTasksOfSessions([sessionId], { endedSince: 0 });
      const found = tasks.filter((task) => task.name === name).at(-1);
      if (!found) {
        throw new RelayError("REMOTE_RELAY_NOT_FOUND", `Session ${sessionId} has no task named "${name}".`);
      }
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () => reject(new RelayError("REMOTE_RELAY_INVALID_INPUT", "The turn was stopped."));
        if (signal.aborted) {
          onAbort();
        }
        signal.addEventListener("abort", onAbort, { once: true });
      });
      aborted.catch(() => {});
      const here = live.get(found.id);
      if (here) {
        return Promise.race([here.ended, aborted]);
      }
      // Ended already, or run by another relay process: its row says when it ends.
      for (let record: TaskRecord | null = found; ; ) {
        if (record === null || record.status !== "running") {
          return record === null ? { taskId: found.id, status: "failed", exitCode: null } : endOf(record);
        }
        await Promise.race([
          new Promise<void>((resolve) => ctx.clock.setTimeout(resolve, FOREIGN_WAIT_POLL_MS)),
          aborted,
        ]);
        record = await ctx.stores.tasks.getTask(found.id);
      }
    },

    async endSession(sessionId) {
      const ending = [...live.values()].filter((task) => task.record.sessionId === sessionId);
      await endAll(ending, "stopped");
      return ending.length;
    },

    lastOutputAt: (taskId) => live.get(taskId)?.lastOutputAt,

    async failLost(stores, { runner, at }) {
      const running = await stores.tasks.listRunningTasks();
      const lost = running.filter(
        (task) => !live.has(task.id) && (runner === undefined || task.runner === runner),
      );
      const failed: TaskRecord[] = [];
      for (const task of lost) {
        const record = await stores.tasks.endTask({
          id: task.id,
          status: "failed",
          exitCode: null,
          endedAt: at,
        });
        if (record === null) {
          continue;
        }
        failed.push(record);
        const session = await stores.sessions.getSession(record.sessionId);
        await settleSessionState(stores, record.sessionId);
        await recordTaskEnded(writer(stores), record, { id: record.sessionId, title: session?.title ?? "" });
        // The embedded database's single process, or a task recorded on this host: the group is here.
        const here =
          runner === undefined || (record.host !== null && record.host === ctx.runnerProcess?.host);
        if (record.pid !== null && here) {
          await options.killLost(record.pid, record.id);
        }
      }
      return failed;
    },

    async sweep() {
      const host = ctx.runnerProcess?.host;
      const expired = await ctx.stores.tasks.listExpiredOutputs({
        endedBefore: ctx.clock.now() - TASK_OUTPUT_KEPT_MS,
        limit: 100,
        ...(host === undefined ? {} : { host }),
      });
      for (const task of expired) {
        if (task.outputPath !== null) {
          await options.removeFile(task.outputPath);
        }
        await ctx.stores.tasks.forgetOutput(task.id);
      }
    },

    async closeAll() {
      await endAll([...live.values()], "failed");
    },
  };
}
