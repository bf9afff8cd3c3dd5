import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Provider, TurnInput, Worker, WorkerSession } from "@oar/engine";
import { onTestFinished } from "vitest";
import { claudeProviderSource } from "../../src";
import { type FakeAnthropic, startFakeAnthropic } from "../../src/testing";

// Waiting on a real CLI: it starts in well under a second here, but a loaded CI box is slower.
export const CLAUDE_TEST_TIMEOUT_MS = 60_000;

/** The pinned CLI of this package's devDependencies (its postinstall put the native binary there). */
export function pinnedClaudeBinary(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@anthropic-ai/claude-code/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: { claude: string } };
  return join(dirname(manifestPath), manifest.bin.claude);
}

export interface ClaudeTestbed {
  readonly fake: FakeAnthropic;
  /** The session's folder: the CLI's cwd. */
  readonly cwd: string;
  /**
   * What the CLI gets as the relay's environment: a HOME, XDG and temp folders of its own, so
   * nothing of this machine's user is read or written, and the fake API as the Anthropic API.
   */
  readonly env: Record<string, string | undefined>;
  /** The pids of processes (the CLI and anything it started) still running with this testbed's env. */
  livingProcesses(): number[];
}

/**
 * A fake Anthropic API and a throwaway home for the real CLI; removed, with any process left
 * over, when the test finishes.
 */
export async function createClaudeTestbed(): Promise<ClaudeTestbed> {
  const root = mkdtempSync(join(tmpdir(), "oar-claude-test-"));
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
    // The CLI puts its sockets and scratch files here, else under the machine's /tmp.
    XDG_RUNTIME_DIR: join(home, "run"),
    TMPDIR: join(home, "tmp"),
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "test-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // MCP tools then go to the model directly, not behind the CLI's tool search.
    ENABLE_TOOL_SEARCH: "false",
    OAR_CLAUDE_TESTBED: mark,
  };
  const livingProcesses = () => processesWithEnv(`OAR_CLAUDE_TESTBED=${mark}`);
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

export function findProvider(providers: readonly Provider[], id: string): Provider {
  const provider = providers.find((p) => p.info.id === id);
  if (!provider) {
    throw new Error(`no provider ${id} among ${providers.map((p) => p.info.id).join(", ")}`);
  }
  return provider;
}

export function sessionOf(cwd: string, overrides: Partial<WorkerSession> = {}): WorkerSession {
  return {
    id: "ses_claude",
    title: "Claude",
    model: "claude-sonnet-5-5",
    effort: null,
    mode: "agent",
    cwd,
    providerState: null,
    ...overrides,
  };
}

export function turnOf(prompt: string, cwd: string, overrides: Partial<TurnInput> = {}): TurnInput {
  return {
    turnId: "trn_1",
    prompt,
    model: "claude-sonnet-5-5",
    effort: null,
    mode: "agent",
    cwd,
    ...overrides,
  };
}

/** A worker of `claude-api` with `apiKey`, on the testbed's CLI and env; closed when the test finishes. */
export function startApiWorker(
  bed: ClaudeTestbed,
  options: { apiKey?: string; session?: Partial<WorkerSession> } = {},
): Worker {
  const source = claudeProviderSource({ bin: pinnedClaudeBinary(), env: bed.env });
  const provider = findProvider(
    source.providers({ "claude-api": { apiKey: options.apiKey ?? "test-key" } }),
    "claude-api",
  );
  const worker = provider.startWorker(sessionOf(bed.cwd, options.session));
  if (!worker) {
    throw new Error("claude-api always starts a worker");
  }
  onTestFinished(() => worker.close());
  return worker;
}
