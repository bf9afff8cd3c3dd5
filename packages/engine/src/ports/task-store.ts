import type { TaskStatus, TestCounts } from "@oar/schema";

/** What ran in the background: a shell command, a background agent, a monitor (§13). */
export type TaskKind = "shell" | "subagent" | "monitor";

/** A session's background task (DESIGN §3: metadata in rows, output in a file under the data dir). */
export interface TaskRecord {
  readonly id: string;
  readonly sessionId: string;
  /** The turn that started it. */
  readonly turnId: string | null;
  readonly kind: TaskKind;
  /** What the agent calls it (`!wait-task NAME`). */
  readonly name: string | null;
  readonly description: string;
  readonly command: string | null;
  readonly status: TaskStatus;
  readonly exitCode: number | null;
  /** The output file; `null` for tasks without output, and once the file is gone. */
  readonly outputPath: string | null;
  /** The test run's counts as last read from its output. */
  readonly counts: TestCounts | null;
  /** The relay process running it (its lease, DESIGN §9): when that process is gone, the task is lost. */
  readonly runner: string | null;
  /** The process group of a shell task (its leader's pid); `null` for tasks without a process. */
  readonly pid: number | null;
  /**
   * The pid space (RunnerProcess.host) the group and the output file are on; `null` when the
   * process did not say. Another host reads the output through a relay process of this one.
   */
  readonly host: string | null;
  readonly startedAt: number;
  readonly lastOutputAt: number | null;
  readonly endedAt: number | null;
}

export type NewTask = Omit<TaskRecord, "status" | "exitCode" | "counts" | "lastOutputAt" | "endedAt">;

export interface TaskEnding {
  readonly id: string;
  readonly status: Exclude<TaskStatus, "running">;
  readonly exitCode: number | null;
  readonly endedAt: number;
}

/** Background tasks. Ids come from the caller's IdGenerator, times from its Clock. */
export interface TaskStore {
  insertTask(task: NewTask): Promise<TaskRecord>;
  getTask(id: string): Promise<TaskRecord | null>;
  /** The tasks of these sessions that run, or ended at `endedSince` or later (`null`: none that ended); oldest first. */
  listTasksOfSessions(
    sessionIds: readonly string[],
    options: { readonly endedSince: number | null },
  ): Promise<TaskRecord[]>;
  /** Every running task; with `runner`, only those of that process. */
  listRunningTasks(options?: { readonly runner?: string }): Promise<TaskRecord[]>;
  /** Ends a running task; `null` when it was not running (ended already, by this or another process). */
  endTask(ending: TaskEnding): Promise<TaskRecord | null>;
  /** The task's process group, once it started (its row is written first, DESIGN §9). */
  recordPid(id: string, pid: number): Promise<void>;
  /** Marks output seen; counts when the output is a test run. Nothing for a task that ended. */
  noteOutput(id: string, seen: { readonly at: number; readonly counts?: TestCounts | null }): Promise<void>;
  /**
   * Ended tasks whose output file is still there and that ended before `endedBefore`; with
   * `host`, only those whose file is on that host (or that named none): a file is removed where it is.
   */
  listExpiredOutputs(options: {
    readonly endedBefore: number;
    readonly limit: number;
    readonly host?: string;
  }): Promise<TaskRecord[]>;
  /** The output file is gone: forget its path. */
  forgetOutput(id: string): Promise<void>;
}
