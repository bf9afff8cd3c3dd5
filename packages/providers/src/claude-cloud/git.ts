import { execFile } from "node:child_process";

export interface GitRun {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
}

/** How long one git command may run; a clone of a large repository takes minutes, a hang forever. */
const GIT_TIMEOUT_MS = 15 * 60_000;

/**
 * Runs git and resolves with its stdout; rejects with git's own message (its stderr). It never
 * prompts: credentials are git's own (helper, SSH agent), and a missing one fails at once.
 */
export function git(args: readonly string[], run: GitRun): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...args],
      {
        cwd: run.cwd,
        env: { ...run.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "" },
        signal: run.signal,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) {
          const said = stderr.trim() || error.message;
          reject(new GitError(`git ${args[0]} failed: ${said}`, stderr.trim()));
          return;
        }
        resolve(stdout);
      },
    );
  });
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = "GitError";
  }
}
