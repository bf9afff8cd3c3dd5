// The Copilot CLI as the relay starts it, and the bench's own ACP client of it: the same binary,
// the same environment (offline BYOK against the fake Messages API, a throwaway HOME), driven
// directly over ACP with the SDK the provider uses.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import {
  COPILOT_BYOK_MODEL,
  copilotTestEnv,
  homeEnv,
  makeAgentFolders,
  pinnedCopilotBinary,
} from "@oar/providers/testing";

/** The model the BYOK configuration names (COPILOT_MODEL): the provider's default. */
export const BYOK_MODEL = COPILOT_BYOK_MODEL;

/**
 * npm's `copilot` command of @oar/providers' pinned devDependency (@github/copilot), as users
 * install it: a Node script that runs the platform's native binary.
 */
export const copilotBinary = pinnedCopilotBinary;

export interface AgentHome {
  /** The sessions' folder: the CLI's cwd, and the relay's allowed root. */
  readonly cwd: string;
  /** What the CLI starts with, directly or through the relay (its `childEnv`). */
  readonly env: Record<string, string>;
  remove(): void;
}

/**
 * A HOME, XDG and temp folders of their own (nothing of this machine's user is read or written),
 * and the fake Messages API at `apiUrl` as the CLI's model provider, offline.
 */
export function createAgentHome(apiUrl: string): AgentHome {
  const { root, home, cwd } = makeAgentFolders("oar-bench-providers-");
  return {
    cwd,
    env: {
      // `copilot` is a `#!/usr/bin/env node` script: this Node first.
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      ...homeEnv(home),
      ...copilotTestEnv({ url: apiUrl }),
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A running `copilot --acp`, connected and initialized. */
export interface DirectAgent {
  readonly init: acp.InitializeResponse;
  /** `session/new` in `cwd` with no MCP server (or the ones given); its id. */
  newSession(cwd: string, mcpServers?: acp.McpServer[]): Promise<string>;
  /** `session/load` of a session this HOME's CLI made before. */
  loadSession(sessionId: string, cwd: string): Promise<void>;
  /** One `session/prompt` with `text`; resolves with the reply streamed meanwhile, rejects unless `end_turn`. */
  prompt(sessionId: string, text: string): Promise<string>;
  /** The resident set of its process group (npm's loader and the native CLI), in MB; NaN off Linux. */
  residentMb(): number;
  /** Ends the process group (SIGTERM, then SIGKILL after 2 s); resolves once the agent has exited. */
  kill(): Promise<void>;
}

/** The process groups of the agents started and not yet ended: an interrupted run ends them. */
const living = new Set<number>();

/** Kills every agent this process started that is still running (on Ctrl-C: they run detached). */
export function killLivingAgents(): void {
  for (const pgid of living) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  living.clear();
}

/**
 * Starts the CLI as the provider does (`copilot --acp --model <model>`, its own process group,
 * stdio as ACP's ndjson stream) and asks `initialize`.
 */
export async function startDirectAgent(bin: string, home: AgentHome): Promise<DirectAgent> {
  const child = spawn(bin, ["--acp", "--model", BYOK_MODEL], {
    cwd: home.cwd,
    env: home.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  for (const pipe of [child.stdin, child.stdout, child.stderr]) {
    pipe?.on("error", () => undefined);
  }
  if (child.pid !== undefined) {
    living.add(child.pid);
  }
  const exited = once(child, "exit").then(() => undefined);
  if (child.stdin === null || child.stdout === null) {
    throw new Error("copilot has no stdio");
  }
  let reply = "";
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = acp
    .client({ name: "oar-bench" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const update = params.update;
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
        reply += update.content.text;
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, () =>
      Promise.resolve({ outcome: { outcome: "cancelled" } } as const),
    )
    .connect(stream);
  void exited.then(() => connection.close());
  connection.closed.catch(() => undefined);
  const failed = (what: string, error: unknown) =>
    new Error(`copilot ${what}: ${error instanceof Error ? error.message : String(error)}\n${stderr}`);
  const kill = async () => {
    connection.close();
    await killGroup(child, exited);
    if (child.pid !== undefined) {
      living.delete(child.pid);
    }
  };
  let init: acp.InitializeResponse;
  try {
    init = await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: "oar-bench", version: "1" },
    });
  } catch (error) {
    await kill();
    throw failed("initialize", error);
  }
  return {
    init,
    async newSession(cwd, mcpServers = []) {
      try {
        return (await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers })).sessionId;
      } catch (error) {
        throw failed("session/new", error);
      }
    },
    async loadSession(sessionId, cwd) {
      try {
        await connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      } catch (error) {
        throw failed("session/load", error);
      }
    },
    async prompt(sessionId, text) {
      reply = "";
      let response: acp.PromptResponse;
      try {
        response = await connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        });
      } catch (error) {
        throw failed("session/prompt", error);
      }
      if (response.stopReason !== "end_turn") {
        throw new Error(`copilot ended a prompt with stop reason ${response.stopReason}`);
      }
      return reply;
    },
    residentMb: () => (child.pid === undefined ? Number.NaN : groupResidentMb(child.pid)),
    kill,
  };
}

/** Linux's /proc: the summed VmRSS of the processes in process group `pgid`. */
function groupResidentMb(pgid: number): number {
  let kb = 0;
  try {
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so from its last ")".
        const group = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
        if (group === pgid) {
          const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
          kb += Number(rss?.[1] ?? 0);
        }
      } catch {
        // Ended meanwhile.
      }
    }
  } catch {
    return Number.NaN;
  }
  return kb / 1024;
}

async function killGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // Gone already.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 2000);
  await exited;
  clearTimeout(timer);
  // What the CLI started in its group (the native binary under npm's loader) goes too.
  signal("SIGKILL");
}

/** Milliseconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}
