import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

/** A running process other than this one, killed when the test ends: a stand-in for another relay. */
export function startOtherProcess(): number {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  if (child.pid === undefined) {
    throw new Error("Could not start `sleep`.");
  }
  return child.pid;
}

/** Stops a process started by startOtherProcess and waits until it is gone. */
export async function stopProcess(pid: number): Promise<void> {
  process.kill(pid, "SIGKILL");
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Process ${pid} did not stop.`);
}

/** The pid of a process that has already exited: a relay that crashed without removing its lock. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  const pid = child.pid;
  await once(child, "exit");
  if (pid === undefined) {
    throw new Error("Could not start a short-lived process.");
  }
  return pid;
}

/** A fresh directory under the system's temp dir, removed when the test ends. */
export async function temporaryDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oar-storage-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export type HolderReport =
  | { readonly opened: number }
  | { readonly closed: number }
  | { readonly error: { readonly code: string; readonly message: string } | string };

export interface HolderProcess {
  readonly pid: number;
  /** The next JSON line the process reports. */
  next(): Promise<HolderReport>;
  /** Closes its stdin: it closes the storage and exits. Resolves with its exit code. */
  stop(): Promise<number | null>;
  /** Kills it without letting it clean up, like a crash. */
  crash(): Promise<void>;
}

/**
 * Bundles test/fixtures/data-dir-holder.ts with tsup into packages/storage/.tmp/ (plain node
 * cannot run TypeScript). The bundle sits directly under the package, like dist/, so its
 * migrations folder (`../drizzle`) resolves as in the built package. Returns the bundle's path.
 */
export async function buildHolder(): Promise<string> {
  const { build } = await import("tsup");
  const outDir = fileURLToPath(new URL("../.tmp", import.meta.url));
  const name = `data-dir-holder-${process.pid}-${Date.now()}`;
  await build({
    entry: { [name]: fileURLToPath(new URL("./fixtures/data-dir-holder.ts", import.meta.url)) },
    outDir,
    format: ["esm"],
    platform: "node",
    target: "node20",
    // The workspace packages go into the bundle (they resolve to sources); the libraries stay
    // outside and load from this package's node_modules, whatever directory the tests run from.
    noExternal: [/^@oar\//],
    external: ["@electric-sql/pglite", "drizzle-orm", "postgres"],
    esbuildOptions(options) {
      options.conditions = ["@oar/source"];
    },
    splitting: false,
    dts: false,
    config: false,
    silent: true,
  });
  return join(outDir, `${name}.js`);
}

export function startHolder(bundle: string, dataDir: string): HolderProcess {
  const child = spawn(process.execPath, [bundle, dataDir], { stdio: ["pipe", "pipe", "pipe"] });
  if (child.pid === undefined) {
    throw new Error("Could not start the holder process.");
  }
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, "exit").then(([code]) => code as number | null);
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  return {
    pid: child.pid,
    async next() {
      const line = await lines.next();
      if (line.done) {
        throw new Error(`The holder process exited with ${await exited} before reporting: ${stderr}`);
      }
      return JSON.parse(line.value) as HolderReport;
    },
    async stop() {
      child.stdin.end();
      return exited;
    },
    async crash() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
