import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import * as acp from "@agentclientprotocol/sdk";
import { killProcessGroup } from "../command/process-group";
import { StderrTail } from "../command/stderr-tail";

/** Where the agent's requests and notifications go: the turn running now, if any. */
export interface AcpClientHandlers {
  onUpdate(notification: acp.SessionNotification): void;
  requestPermission(
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse>;
}

export interface AcpExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the program could not be started at all (ENOENT, EACCES…). */
  readonly spawnError?: string;
}

/** A running ACP agent: its connection, and how it ended once it has. */
export interface AcpAgentProcess {
  readonly connection: acp.ClientConnection;
  /** The argv it was started with: a turn whose argv differs (another model) needs a new process. */
  readonly argv: readonly string[];
  /** Resolves when the process has exited (or failed to start). */
  readonly exited: Promise<AcpExit>;
  exit(): AcpExit | undefined;
  stderrTail(): string;
  /** Ends the whole process group (SIGTERM, then SIGKILL after the grace); resolves once it is gone. */
  kill(): Promise<void>;
}

export interface StartAcpOptions {
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly killGraceMs: number;
  readonly handlers: AcpClientHandlers;
}

/**
 * Starts the agent in a process group of its own (so what it starts goes with it) and connects to
 * it as an ACP client over its stdio.
 */
export function startAcpProcess(options: StartAcpOptions): AcpAgentProcess {
  const [program, ...args] = options.argv;
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stderr = new StderrTail();
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  // Pipe errors end the pipes ('close' follows); unheard, they would crash the relay.
  for (const pipe of [child.stdin, child.stdout, child.stderr]) {
    pipe.on("error", () => undefined);
  }
  let ended: AcpExit | undefined;
  const exited = new Promise<AcpExit>((resolve) => {
    const finish = (exit: AcpExit) => {
      ended ??= exit;
      resolve(ended);
    };
    child.once("error", (error) =>
      finish({
        code: null,
        signal: null,
        spawnError: (error as NodeJS.ErrnoException).code ?? error.message,
      }),
    );
    child.once("exit", (code, signal) => finish({ code, signal }));
  });
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = acp
    .client({ name: "oar-relay" })
    .onNotification(acp.methods.client.session.update, ({ params }) => options.handlers.onUpdate(params))
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) =>
      options.handlers.requestPermission(params, signal),
    )
    .connect(stream);
  // The agent going away rejects what is pending on the connection; a closed connection is all it means.
  void exited.then(() => connection.close());
  connection.closed.catch(() => undefined);
  return {
    connection,
    argv: options.argv,
    exited,
    exit: () => ended,
    stderrTail: () => stderr.text(),
    async kill() {
      connection.close();
      if (child.pid !== undefined && ended?.spawnError === undefined) {
        await killProcessGroup(child.pid, options.killGraceMs);
      }
      // With its group gone the child's exit comes at once; waited for, so `exit()` tells how it ended.
      const grace = new AbortController();
      await Promise.race([
        exited,
        delay(options.killGraceMs, undefined, { ref: false, signal: grace.signal }).catch(() => undefined),
      ]);
      grace.abort();
    },
  };
}

/** How the agent ended, in words, with the end of its stderr. */
export function exitDescription(program: string, exit: AcpExit | undefined, stderrTail: string): string {
  const tail = stderrTail === "" ? "" : `\nLast lines of its stderr:\n${stderrTail}`;
  if (exit?.spawnError !== undefined) {
    return `\`${program}\` could not start (${exit.spawnError}).${tail}`;
  }
  if (exit === undefined) {
    return `\`${program}\` closed its ACP connection.${tail}`;
  }
  const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return `\`${program}\` ${how}.${tail}`;
}
