import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";

/** How a shell task's process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ShellProcess {
  readonly pid: number;
  readonly exited: Promise<ProcessExit>;
  /** Ends the whole process group (the command and whatever it started); resolves once it exited. */
  kill(): Promise<ProcessExit>;
}

export interface ShellTaskStart {
  readonly taskId: string;
  readonly command: string;
  readonly cwd: string;
  /** Variables added to the base environment for the task. */
  readonly env: Readonly<Record<string, string>>;
  /** The environment tasks start from; absent, the relay's own. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  readonly outputPath: string;
  /** Each piece of output, as it is written to the file. */
  readonly onOutput: () => void;
}

// A group that ignores SIGTERM this long is killed outright: a stop must not wait on a task.
const KILL_GRACE_MS = 2_000;

/** Signals the group led by `pid`; false when it is gone already. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `command` with `sh -c` in its own process group (detached), stdout and stderr appended to
 * the output file as they come. The environment names the task (OAR_TASK_ID), so that a later
 * relay can tell its group from a process that reused the pid.
 */
export function startShellProcess(start: ShellTaskStart): Promise<ShellProcess> {
  return new Promise((resolve, reject) => {
    const file = createWriteStream(start.outputPath, { flags: "a" });
    const variables = { ...start.env, OAR_TASK_ID: start.taskId };
    // Without a base environment, `env` adds the task's variables to the relay's own, which the
    // child inherits (the relay's environment is the app's to read, not the engine's), and execs
    // the shell in place, so the group's leader stays the pid recorded.
    const child =
      start.baseEnv === undefined
        ? spawn(
            "env",
            [
              ...Object.entries(variables).map(([name, value]) => `${name}=${value}`),
              "sh",
              "-c",
              start.command,
            ],
            {
              cwd: start.cwd,
              detached: true,
              stdio: ["ignore", "pipe", "pipe"],
            },
          )
        : spawn("sh", ["-c", start.command], {
            cwd: start.cwd,
            detached: true,
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...start.baseEnv, ...variables },
          });
    const fileClosed = new Promise<void>((done) => file.on("close", () => done()));
    let streamsOpen = 2;
    const pipe = (stream: NodeJS.ReadableStream) => {
      stream.on("data", (chunk: Buffer) => {
        file.write(chunk);
        start.onOutput();
      });
      stream.on("close", () => {
        streamsOpen -= 1;
        if (streamsOpen === 0) {
          file.end();
        }
      });
    };
    pipe(child.stdout);
    pipe(child.stderr);
    const exited = new Promise<ProcessExit>((done) => {
      child.on("close", (code, signal) => {
        // The file holds everything the task wrote once its exit is known.
        void fileClosed.then(() => done({ code, signal }));
      });
    });
    child.on("error", (error) => {
      file.end();
      reject(error);
    });
    child.on("spawn", () => {
      const pid = child.pid as number;
      resolve({
        pid,
        exited,
        async kill() {
          if (signalGroup(pid, "SIGTERM")) {
            const grace = setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS);
            grace.unref();
            const exit = await exited;
            clearTimeout(grace);
            // Background children of the command may outlive its shell: the group goes with it.
            signalGroup(pid, "SIGKILL");
            return exit;
          }
          return exited;
        },
      });
    });
  });
}

/**
 * Ends the group a relay before this one left running, but only when the pid still names that
 * task's process (Linux's /proc shows its OAR_TASK_ID); elsewhere nothing is killed.
 */
export async function killLostGroup(pid: number, taskId: string): Promise<boolean> {
  let environ: string;
  try {
    environ = await readFile(`/proc/${pid}/environ`, "latin1");
  } catch {
    return false;
  }
  if (!environ.split("\0").includes(`OAR_TASK_ID=${taskId}`)) {
    return false;
  }
  return signalGroup(pid, "SIGKILL");
}
