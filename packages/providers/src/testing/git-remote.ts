import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A git identity for commits made in tests (the testbed's HOME has none). */
export const GIT_IDENTITY_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: "OAR Test",
  GIT_AUTHOR_EMAIL: "test@oar.invalid",
  GIT_COMMITTER_NAME: "OAR Test",
  GIT_COMMITTER_EMAIL: "test@oar.invalid",
};

export interface GitRemotes {
  /** What `settings.providers["claude-cloud"].gitBaseUrl` takes: `file://<folder>/`. */
  readonly baseUrl: string;
  /** The bare repository of `owner/name`. */
  pathOf(repo: string): string;
  /** Makes `owner/name` with a README on `main`, and a branch per entry with its files. */
  create(repo: string, branches?: Readonly<Record<string, Readonly<Record<string, string>>>>): string;
  /** `git log -1 --format=%s` of a branch of the bare repository; `null` when it has no such branch. */
  lastCommit(repo: string, branch: string): string | null;
  /** A file's text on a branch of the bare repository. */
  show(repo: string, branch: string, path: string): string;
}

// Only what git needs: the test's whole environment would bring the machine user's git settings.
const runIn =
  (path: string | undefined) =>
  (cwd: string, ...args: string[]) =>
    execFileSync("git", args, {
      cwd,
      env: { PATH: path, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", ...GIT_IDENTITY_ENV },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });

/** Local bare repositories standing for a git host, under `root`; `path` is where git is found (the test's PATH). */
export function createGitRemotes(root: string, path: string | undefined): GitRemotes {
  const run = runIn(path);
  const base = join(root, "remotes");
  mkdirSync(base, { recursive: true });
  const pathOf = (repo: string) => join(base, repo);
  return {
    baseUrl: `file://${base}/`,
    pathOf,
    create(repo, branches = {}) {
      const bare = pathOf(repo);
      mkdirSync(bare, { recursive: true });
      run(bare, "init", "--quiet", "--bare", "--initial-branch=main");
      const work = mkdtempSync(join(tmpdir(), "oar-git-seed-"));
      try {
        run(work, "init", "--quiet", "--initial-branch=main");
        writeFileSync(join(work, "README.md"), "# sample\n");
        run(work, "add", ".");
        run(work, "commit", "--quiet", "-m", "First commit");
        for (const [branch, files] of Object.entries(branches)) {
          run(work, "checkout", "--quiet", "-b", branch, "main");
          for (const [path, text] of Object.entries(files)) {
            writeFileSync(join(work, path), text);
          }
          run(work, "add", ".");
          run(work, "commit", "--quiet", "-m", `On ${branch}`);
        }
        run(work, "push", "--quiet", "--all", bare);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      return bare;
    },
    lastCommit(repo, branch) {
      try {
        return run(pathOf(repo), "log", "-1", "--format=%s", `refs/heads/${branch}`).trim();
      } catch {
        return null;
      }
    },
    show(repo, branch, path) {
      return run(pathOf(repo), "show", `${branch}:${path}`);
    },
  };
}
