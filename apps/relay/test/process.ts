import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { OWNER_TOKEN } from "./harness";

const appDir = join(import.meta.dirname, "..");

export interface RelayProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** Resolves with the base URL once the relay prints that it listens, rejects if it exits first. */
  readonly listening: Promise<string>;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
}

/** Starts `oar-relay start` (and its flags `args`) as a real process, the way `pnpm relay` does. */
export function spawnRelay(env: Record<string, string>, args: readonly string[] = []): RelayProcess {
  // One node process (tsx as a loader, not its wrapper CLI), so its pid is the one that holds the lock.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@oar/source", "src/cli.ts", "start", ...args],
    {
      cwd: appDir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", RELAY_PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match?.[1]) {
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    exited.then((code) => reject(new Error(`relay exited (${code}) before listening:\n${text}`)));
  });
  listening.catch(() => {});
  return { child, output: () => text, listening, exited };
}

/** A call to a running relay's owner API (bearer = the owner token); the JSON answer and status. */
export async function ownerCall<T = Record<string, unknown>>(
  base: string,
  token: string,
  request: { readonly method: string; readonly path: string; readonly body?: unknown },
): Promise<{ readonly status: number; readonly body: T }> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** An owner API call (the owner token) that must answer 200; its JSON. */
export async function ownerOk<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await ownerCall<T>(base, OWNER_TOKEN, {
    method,
    path,
    ...(body === undefined ? {} : { body }),
  });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

/** Kills a relay a failed test left running, so no process outlives its test. */
export function stopIfRunning(relay: RelayProcess): void {
  if (relay.child.exitCode === null && relay.child.signalCode === null) {
    relay.child.kill("SIGKILL");
  }
}
