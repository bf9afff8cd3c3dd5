import { spawn } from "node:child_process";

// Time the CLI gets to end its requests and write its transcript after SIGTERM, before SIGKILL.
export const KILL_GRACE_MS = 3_000;
const STDERR_TAIL_LINES = 20;
const STDERR_TAIL_CHARS = 8_000;

export interface ClaudeProcessOptions {
  readonly bin: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Written to stdin, which is then closed: the prompt. */
  readonly stdin: string;
  /** Aborting kills the CLI's process group. */
  readonly signal: AbortSignal;
  readonly onStdout: (chunk: string) => void;
}

export interface ClaudeExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last lines the CLI wrote to stderr. */
  readonly stderrTail: string;
  /** The run was aborted through the signal (the relay stopped it), not ended by the CLI. */
  readonly aborted: boolean;
  /** Why the CLI could not start (ENOENT, EACCES), when it could not. */
  readonly spawnError?: string;
}

/**
 * Runs the CLI once, in a process group of its own: a stop sends SIGTERM to the group, then
 * SIGKILL after a grace period. On SIGTERM the CLI ends the shell commands it started itself
 * (it gives each a group of its own). Resolves when the CLI has exited and its output is read.
 */
export function runClaudeProcess(options: ClaudeProcessOptions): Promise<ClaudeExit> {
  return new Promise((resolve) => {
    let stderr = "";
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn(options.bin, [...options.args], {
      cwd: options.cwd,
      env: definedOnly(options.env),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) {
        return;
      }
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const groupAlive = () => {
      try {
        return child.pid !== undefined && process.kill(-child.pid, 0);
      } catch {
        return false;
      }
    };
    const onAbort = () => {
      aborted = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    };

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", options.onStdout);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // The CLI may exit before it reads the prompt; the exit says why, not the broken pipe.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);

    child.on("error", (error) => {
      options.signal.removeEventListener("abort", onAbort);
      resolve({ code: null, signal: null, stderrTail: "", aborted: false, spawnError: error.message });
    });
    child.on("close", (code, signal) => {
      options.signal.removeEventListener("abort", onAbort);
      clearTimeout(killTimer);
      // Nothing the CLI started (a background shell) outlives its turn: a stopped turn's leftovers
      // go at once, a finished turn's get the same grace the CLI had.
      if (aborted) {
        killGroup("SIGKILL");
      } else if (groupAlive()) {
        killGroup("SIGTERM");
        setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref();
      }
      resolve({ code, signal, stderrTail: lastLines(stderr), aborted });
    });

    if (options.signal.aborted) {
      onAbort();
    } else {
      options.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
}

function lastLines(text: string): string {
  return text.trimEnd().split("\n").slice(-STDERR_TAIL_LINES).join("\n");
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) {
      out[name] = value;
    }
  }
  return out;
}
