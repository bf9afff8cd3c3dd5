import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

export interface ChildRelay {
  readonly child: ChildProcess;
  /** The first line the child printed, parsed: its port and whatever else it tells. */
  readonly ready: Record<string, unknown> & { readonly port: number };
  readonly base: string;
  stop(): Promise<void>;
}

/**
 * Starts a benchmark server script (run with tsx and the source condition, and `nodeArgs` if any)
 * and waits for its ready line.
 */
export async function startChildRelay(
  script: string,
  args: readonly string[],
  cwd: string,
  nodeArgs: readonly string[] = [],
): Promise<ChildRelay> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@oar/source", ...nodeArgs, script, ...args],
    {
      cwd,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const [first] = (await once(lines, "line")) as [string];
  const ready = JSON.parse(first) as ChildRelay["ready"];
  return {
    child,
    ready,
    base: `http://127.0.0.1:${ready.port}`,
    async stop() {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
