import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { type GitRun, git } from "./git";

export interface WorkspaceRequest {
  /** The session's clone: `<workspaces>/<session id>`. */
  readonly dir: string;
  readonly url: string;
  /** `null`: the repository's default branch. */
  readonly branch: string | null;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
}

/**
 * The session's clone, made if it is not there yet: cloned into a side folder and renamed into
 * place once on its branch, so a clone cut short (a stop, a crash) is never taken for a finished
 * one. The branch is checked out when the remote has it, else created from the default branch.
 * An existing clone is used as it is: the agent's work in it is kept across turns and restarts.
 */
export async function ensureWorkspace(request: WorkspaceRequest): Promise<string> {
  const { dir } = request;
  if (existsSync(join(dir, ".git"))) {
    return dir;
  }
  const parent = join(dir, "..");
  await mkdir(parent, { recursive: true });
  const run: GitRun = { cwd: parent, env: request.env, signal: request.signal };
  if (request.branch !== null) {
    // Refused before anything is fetched: a branch git would not take, or one read as an option.
    const refused = () => new Error(`branch "${request.branch}" is not a name git takes for a branch.`);
    if (request.branch.startsWith("-")) {
      throw refused();
    }
    await git(["check-ref-format", "--branch", request.branch], run).catch(() => {
      throw refused();
    });
  }
  const side = `${dir}.cloning`;
  await rm(side, { recursive: true, force: true });
  try {
    await git(["clone", "--quiet", "--", request.url, side], run);
    if (request.branch !== null) {
      await checkOutBranch(request.branch, { ...run, cwd: side });
    }
    // Whatever is at the clone's place without a .git is not a clone (a copy cut short by hand).
    await rm(dir, { recursive: true, force: true });
    await rename(side, dir);
  } catch (error) {
    await rm(side, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

async function checkOutBranch(branch: string, run: GitRun): Promise<void> {
  const remote = await git(["ls-remote", "--heads", "origin", `refs/heads/${branch}`], run);
  if (remote.trim() !== "") {
    await git(["checkout", "--quiet", "-B", branch, "--track", `origin/${branch}`], run);
  } else {
    await git(["checkout", "--quiet", "-b", branch], run);
  }
}

/** Removes a session's clone (and a clone left half made). */
export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}.cloning`, { recursive: true, force: true });
}

/** Hands a clone on to the session that continues it; nothing to do when there is none. */
export async function moveWorkspace(from: string, to: string): Promise<void> {
  if (!existsSync(from)) {
    return;
  }
  await rm(to, { recursive: true, force: true });
  await rename(from, to);
}
