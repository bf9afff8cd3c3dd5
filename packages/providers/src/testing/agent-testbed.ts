import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic";

export interface AgentTestbed {
  readonly fake: FakeAnthropic;
  /** A scratch folder; `cwd` and the agent's HOME are in it. */
  readonly root: string;
  /** The session's folder: the agent's cwd. */
  readonly cwd: string;
  /**
   * What the agent CLI gets as the relay's environment: a HOME, XDG and temp folders of its own,
   * so nothing of this machine's user is read or written, the fake API as its model API, and a
   * marker variable that finds every process started with it.
   */
  readonly env: Record<string, string | undefined>;
  /** The running (not zombie) processes started with this testbed's env. */
  livingProcesses(): number[];
  /** Kills what is left over, closes the fake API and removes the folders. */
  dispose(): Promise<void>;
}

const MARKER = "OAR_AGENT_TESTBED";

/**
 * A fake Anthropic API and a throwaway home for a real agent CLI: `apiEnv` points it at the fake,
 * `path` is the PATH it finds node and the system's tools on (the test's own).
 */
export async function createAgentTestbed(options: {
  readonly path: string | undefined;
  readonly apiEnv: (fake: FakeAnthropic) => Record<string, string>;
}): Promise<AgentTestbed> {
  const { root, home, cwd } = makeAgentFolders("oar-agent-test-");
  const fake = await startFakeAnthropic();
  const mark = randomUUID();
  const env: Record<string, string | undefined> = {
    PATH: options.path,
    ...homeEnv(home),
    ...options.apiEnv(fake),
    [MARKER]: mark,
  };
  const livingProcesses = () => processesWithEnv(`${MARKER}=${mark}`);
  return {
    fake,
    root,
    cwd,
    env,
    livingProcesses,
    async dispose() {
      for (const pid of livingProcesses()) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Ended in the meantime.
        }
      }
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A scratch folder with a HOME (and its tmp and run folders) and a work folder, for an agent CLI. */
export function makeAgentFolders(prefix: string): { root: string; home: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, "home");
  const cwd = join(root, "work");
  for (const dir of [home, cwd, join(home, "tmp"), join(home, "run")]) {
    mkdirSync(dir, { recursive: true });
  }
  return { root, home, cwd };
}

/** HOME, XDG and temp folders under `home` (made by `makeAgentFolders`): nothing of the machine's user is read or written. */
export function homeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    // The CLIs put their sockets and scratch files here, else under the machine's /tmp.
    XDG_RUNTIME_DIR: join(home, "run"),
    TMPDIR: join(home, "tmp"),
  };
}

/** Linux's /proc: the running (not zombie) processes whose environment holds `entry`. */
export function processesWithEnv(entry: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return (
          !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z") &&
          readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(entry)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The model the Copilot testbed's BYOK configuration names (COPILOT_MODEL): its default. */
export const COPILOT_BYOK_MODEL = "claude-sonnet-4.5";

/** The real Copilot CLI offline, in its BYOK mode against the fake Messages API (DESIGN §5). */
export function copilotTestEnv(api: { readonly url: string }): Record<string, string> {
  return {
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: api.url,
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_API_KEY: "test-key",
    COPILOT_MODEL: COPILOT_BYOK_MODEL,
    COPILOT_AUTO_UPDATE: "false",
  };
}

/** The Copilot CLI pinned in this package's devDependencies: npm's `copilot` command, as users install it. */
export function pinnedCopilotBinary(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@github/copilot/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: { copilot: string } };
  return join(dirname(manifestPath), manifest.bin.copilot);
}

/** The real Claude Code CLI offline, against the fake Messages API (DESIGN §5). */
export function claudeTestEnv(api: { readonly url: string }): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "test-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // MCP tools then go to the model directly, not behind the CLI's tool search.
    ENABLE_TOOL_SEARCH: "false",
  };
}

/** The Claude Code CLI pinned in this package's devDependencies (its postinstall put the native binary there). */
export function pinnedClaudeBinary(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@anthropic-ai/claude-code/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: { claude: string } };
  return join(dirname(manifestPath), manifest.bin.claude);
}
