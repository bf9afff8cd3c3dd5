import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** `oar-relay`'s entry point, run from source as `pnpm relay` runs it. */
export const RELAY_CLI = join(import.meta.dirname, "..", "..", "apps", "relay", "src", "cli.ts");
/** The V8 options `pnpm relay` (the root package.json) starts the relay with. */
export const RELAY_NODE_ARGS: readonly string[] = ["--max-semi-space-size=64"];
/** The line the relay prints once it listens, with its address. */
export const LISTENING_RE = /listening on (http:\/\/\S+)/;

export interface RelayProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly base: string;
  stop(): Promise<void>;
}

/**
 * Starts the relay as a user does (`oar-relay start`, run from source like `pnpm relay`) with the
 * given environment only (and node options, if any) on a free port, and resolves once it prints the
 * address it listens on.
 */
export async function startRelayProcess(
  env: Readonly<Record<string, string>>,
  nodeArgs: readonly string[] = [],
): Promise<RelayProcess> {
  const args = [
    ...RELAY_NODE_ARGS,
    "--import",
    "tsx",
    "--conditions=@oar/source",
    ...nodeArgs,
    RELAY_CLI,
    "start",
  ];
  const child = spawn(process.execPath, args, {
    cwd: join(import.meta.dirname, ".."),
    // Not this shell's environment: a DATABASE_URL or RELAY_* set there would redirect the run.
    env: { HOME: homedir(), TMPDIR: tmpdir(), RELAY_HOST: "127.0.0.1", RELAY_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`oar-relay start exited with ${code} before it listened`);
  });
  const listening = (async () => {
    for await (const line of createInterface({ input: child.stdout })) {
      const match = LISTENING_RE.exec(line);
      if (match?.[1]) {
        return match[1];
      }
    }
    throw new Error("oar-relay start closed its output before it listened");
  })();
  const base = await Promise.race([listening, exited]);
  exited.catch(() => {});
  // The relay keeps printing (a stop line); draining stdout keeps it from blocking on a full pipe.
  child.stdout?.resume();
  if (child.pid === undefined) {
    throw new Error("oar-relay start has no pid");
  }
  return {
    child,
    pid: child.pid,
    base,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    },
  };
}
