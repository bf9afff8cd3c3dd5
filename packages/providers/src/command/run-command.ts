import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import type { Clock } from "@oar/core";
import type { AgentAccess, TurnInput, TurnIO, TurnOutcome } from "@oar/engine";
import type { CommandProviderDefinition } from "./definition";
import { fillPlaceholders } from "./placeholders";
import { killProcessGroup } from "./process-group";
import { ReplyBuffer } from "./reply-buffer";
import { StderrTail } from "./stderr-tail";

export type CommandEnv = Readonly<Record<string, string | undefined>>;

/** What a worker knows when it runs a turn of its command. */
export interface CommandTurnContext {
  readonly providerId: string;
  readonly definition: CommandProviderDefinition;
  readonly sessionId: string;
  /** The environment the command starts with, before the OAR_* variables are set. */
  readonly env: CommandEnv;
  readonly killGraceMs: number;
}

/** How the command's run ended, before its process group is cleaned up. */
type RunEnd =
  | { readonly kind: "exited"; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: "spawn-failed"; readonly error: Error }
  | { readonly kind: "timed-out" }
  | { readonly kind: "stopped" };

/**
 * Runs one turn of a command provider (DESIGN §5): the argv with its placeholders filled, in its
 * own process group, the prompt on stdin, stdout streamed as the reply. However the turn ends —
 * exit, timeout, `stop` aborted, spawn failure — the group is gone before the outcome returns.
 */
export async function runCommandTurn(
  context: CommandTurnContext,
  input: TurnInput,
  io: TurnIO,
  stop: AbortSignal,
): Promise<TurnOutcome> {
  if (stop.aborted) {
    return { status: "stopped" };
  }
  const access = await io.agentAccess();
  if (stop.aborted) {
    return { status: "stopped" };
  }
  const [program, ...items] = context.definition.command;
  const cwd = input.cwd ?? process.cwd();
  const args = fillPlaceholders(items, {
    model: input.model,
    effort: input.effort ?? "",
    session: context.sessionId,
    cwd,
  });
  let child: ChildProcessWithoutNullStreams;
  try {
    // detached: the command leads a process group of its own, so it and everything it starts can
    // be killed together (process.kill(-pid)).
    child = spawn(program, args, {
      cwd,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: commandEnv(context, access),
    });
  } catch (error) {
    return { status: "error", error: await spawnFailureMessage(context, error as Error, cwd) };
  }

  const reply = new ReplyBuffer((text) => io.appendText(text));
  const stderr = new StderrTail();
  child.stdout.on("data", (chunk: Buffer) => reply.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  // A failed read of a pipe ends it ('close' follows); unheard, the 'error' would crash the relay.
  child.stdout.on("error", () => undefined);
  child.stderr.on("error", () => undefined);
  const outputClosed = Promise.all([closeOf(child.stdout), closeOf(child.stderr)]);
  // A program that never reads its stdin closes the pipe: the EPIPE that follows is no failure.
  child.stdin.on("error", () => undefined);
  child.stdin.end(input.prompt);

  const end = await waitForEnd(child, io.clock, context.definition.timeoutSeconds, stop);
  if (child.pid !== undefined) {
    await killProcessGroup(child.pid, context.killGraceMs);
  }
  // With the group gone the pipes close; one handed to a process that left the group is not
  // waited on past the grace.
  if (!(await settlesWithin(outputClosed, context.killGraceMs))) {
    child.stdout.destroy();
    child.stderr.destroy();
  }
  return outcomeOf(end, { context, program, cwd, reply: withoutTrailingNewline(reply.finish()), stderr });
}

function commandEnv(context: CommandTurnContext, access: AgentAccess | null): CommandEnv {
  // Undefined values are left out by spawn: without access, no OAR_RELAY_URL or OAR_AGENT_TOKEN
  // the relay itself may have inherited reaches the command.
  return {
    ...context.env,
    OAR_SESSION: context.sessionId,
    OAR_RELAY_URL: access?.url,
    OAR_AGENT_TOKEN: access?.token,
  };
}

function closeOf(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => stream.once("close", () => resolve()));
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = new AbortController();
  const settled = await Promise.race([
    promise.then(() => true),
    delay(ms, false, { ref: false, signal: timeout.signal }).catch(() => false),
  ]);
  timeout.abort();
  return settled;
}

/** The first of: the command exits, it fails to start, its timeout passes, the turn is stopped. */
function waitForEnd(
  child: ChildProcessWithoutNullStreams,
  clock: Clock,
  timeoutSeconds: number | undefined,
  stop: AbortSignal,
): Promise<RunEnd> {
  return new Promise((resolve) => {
    const onStop = () => finish({ kind: "stopped" });
    const timer =
      timeoutSeconds === undefined
        ? undefined
        : clock.setTimeout(() => finish({ kind: "timed-out" }), timeoutSeconds * 1000);
    const finish = (end: RunEnd) => {
      if (timer !== undefined) {
        clock.clearTimeout(timer);
      }
      stop.removeEventListener("abort", onStop);
      resolve(end);
    };
    // Kept after the end: an 'error' event without a listener would throw.
    child.on("error", (error) => finish({ kind: "spawn-failed", error }));
    child.once("exit", (code, signal) => finish({ kind: "exited", code, signal }));
    stop.addEventListener("abort", onStop, { once: true });
    if (stop.aborted) {
      onStop();
    }
  });
}

interface Ending {
  readonly context: CommandTurnContext;
  readonly program: string;
  readonly cwd: string;
  readonly reply: string;
  readonly stderr: StderrTail;
}

async function outcomeOf(end: RunEnd, ending: Ending): Promise<TurnOutcome> {
  const { context, program, reply } = ending;
  const partial = reply === "" ? {} : { reply };
  switch (end.kind) {
    case "exited": {
      if (end.code === 0) {
        return { status: "done", reply };
      }
      const head =
        end.code === null
          ? `\`${program}\` was killed by signal ${end.signal ?? "unknown"}.`
          : `\`${program}\` exited with code ${end.code}.`;
      const tail = ending.stderr.text();
      return { status: "error", error: tail === "" ? head : `${head}\n${tail}`, ...partial };
    }
    case "timed-out":
      return {
        status: "error",
        error: `\`${program}\` ran longer than its timeout (${context.definition.timeoutSeconds} s) and was killed.`,
        ...partial,
      };
    case "stopped":
      return { status: "stopped", ...partial };
    case "spawn-failed":
      return { status: "error", error: await spawnFailureMessage(context, end.error, ending.cwd) };
  }
}

/** Why the command could not start, and where the owner fixes it. */
async function spawnFailureMessage(context: CommandTurnContext, error: Error, cwd: string): Promise<string> {
  const [program] = context.definition.command;
  const code = (error as NodeJS.ErrnoException).code;
  const fix = `check the command of provider ${context.providerId} in the relay settings.`;
  // spawn says ENOENT for a missing working folder too, naming the program: tell them apart.
  if (code === "ENOENT" && !(await isFolder(cwd))) {
    return `\`${program}\` could not start: the session's folder ${cwd} does not exist.`;
  }
  switch (code) {
    case "ENOENT":
      return `\`${program}\` was not found (ENOENT): ${fix}`;
    case "EACCES":
      return `\`${program}\` could not be run (EACCES: permission denied): ${fix}`;
    default:
      return `\`${program}\` could not start (${code ?? error.message}): ${fix}`;
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function withoutTrailingNewline(text: string): string {
  if (text.endsWith("\r\n")) {
    return text.slice(0, -2);
  }
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}
