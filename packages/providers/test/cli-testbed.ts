import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "../src/testing";

export interface CliTestbed {
  readonly fake: FakeAnthropic;
  /** The session's folder: the CLI's cwd. */
  readonly cwd: string;
  /**
   * What the CLI gets as the relay's environment: a HOME, XDG and temp folders of its own, so
   * nothing of this machine's user is read or written, and the fake API as its model API.
   */
  readonly env: Record<string, string | undefined>;
  /** The pids of processes (the CLI and anything it started) still running with this testbed's env. */
  livingProcesses(): number[];
}

/**
 * A fake Anthropic API and a throwaway home for a real agent CLI, `apiEnv` pointing it at the
 * fake; removed, with any process left over, when the test finishes.
 */
export async function createCliTestbed(
  apiEnv: (fake: FakeAnthropic) => Record<string, string>,
): Promise<CliTestbed> {
  const root = mkdtempSync(join(tmpdir(), "oar-cli-test-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  for (const dir of [home, cwd, join(home, "tmp"), join(home, "run")]) {
    mkdirSync(dir, { recursive: true });
  }
  const fake = await startFakeAnthropic();
  const mark = randomUUID();
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    // The CLIs put their sockets and scratch files here, else under the machine's /tmp.
    XDG_RUNTIME_DIR: join(home, "run"),
    TMPDIR: join(home, "tmp"),
    ...apiEnv(fake),
    OAR_CLI_TESTBED: mark,
  };
  const livingProcesses = () => processesWithEnv(`OAR_CLI_TESTBED=${mark}`);
  onTestFinished(async () => {
    for (const pid of livingProcesses()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Ended in the meantime.
      }
    }
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { fake, cwd, env, livingProcesses };
}

/** Linux's /proc: the processes whose environment holds `entry` (readable for our own processes). */
function processesWithEnv(entry: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(entry);
      } catch {
        return false;
      }
    })
    .map(Number);
}
