import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import type { AgentAccess, TurnInput, Worker, WorkerSession } from "@oar/engine";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { expect, vi } from "vitest";
import { type CommandProviderDefinition, createCommandProvider } from "../../src";

/** Prints, as one JSON line, what the command provider gave it: argv, cwd, stdin and the OAR_* env. */
const PROBE_SCRIPT = `
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const env = {};
for (const key of ["OAR_SESSION", "OAR_RELAY_URL", "OAR_AGENT_TOKEN", "FROM_OPTIONS"]) {
  if (key in process.env) env[key] = process.env[key];
}
process.stdout.write(JSON.stringify({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  stdin: Buffer.concat(chunks).toString("utf8"),
  env,
}) + "\\n");
`;

/**
 * Writes its first argument's bytes (hex), waits until the gate file exists, then writes the
 * second's: the test opens the gate once it saw the first piece, so the pieces arrive apart.
 */
const GATE_SCRIPT = `
import { existsSync } from "node:fs";
const [gate, first, second] = process.argv.slice(2);
const write = (hex) => new Promise((done) => process.stdout.write(Buffer.from(hex, "hex"), done));
await write(first);
while (!existsSync(gate)) await new Promise((done) => setTimeout(done, 5));
await write(second);
`;

export interface CommandScripts {
  readonly dir: string;
  readonly probe: string;
  readonly gate: string;
  remove(): Promise<void>;
}

export async function writeCommandScripts(): Promise<CommandScripts> {
  const dir = await mkdtemp(join(tmpdir(), "oar-command-"));
  const probe = join(dir, "probe.mjs");
  const gate = join(dir, "gate.mjs");
  await writeFile(probe, PROBE_SCRIPT);
  await writeFile(gate, GATE_SCRIPT);
  return { dir, probe, gate, remove: () => rm(dir, { recursive: true, force: true }) };
}

export const SESSION: WorkerSession = {
  id: "ses_cmd1",
  title: "Command",
  model: "m1",
  effort: null,
  mode: "agent",
  cwd: null,
  providerState: null,
};

export interface TurnOptions {
  readonly input?: Partial<TurnInput>;
  readonly access?: AgentAccess | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

// Short, so a test of SIGKILL after an ignored SIGTERM does not wait the default two seconds.
/** What the relay passes its providers: its own environment (the tests' process's here). */
export const RELAY_ENV: Readonly<Record<string, string | undefined>> = process.env;

export const TEST_KILL_GRACE_MS = 200;

/** Starts one turn of a command provider on a worker, with a recording TurnIO and a fake clock. */
export function startTurn(definition: CommandProviderDefinition, options: TurnOptions = {}) {
  const clock = new FakeClock();
  const io = createRecordingTurnIO({ clock, access: options.access ?? null });
  const provider = createCommandProvider("probe", definition, {
    env: options.env ?? RELAY_ENV,
    killGraceMs: TEST_KILL_GRACE_MS,
  });
  const worker = provider.startWorker(SESSION) as Worker;
  const outcome = worker.runTurn(
    {
      turnId: "trn_1",
      prompt: "hello",
      model: "m1",
      effort: null,
      mode: "agent",
      cwd: null,
      ...options.input,
    },
    io,
  );
  return { outcome, io, clock, worker };
}

/** The code `kill(pid, 0)` fails with, or undefined while the process exists. */
export function signalZeroError(pid: number): string | undefined {
  try {
    process.kill(pid, 0);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

/**
 * Waits until no process has this pid. Polls: a killed process whose parent exited is reaped by
 * init, which on some machines takes a moment after it died.
 */
export async function expectProcessGone(pid: number): Promise<void> {
  await vi.waitFor(() => expect(signalZeroError(pid), `process ${pid}`).toBe("ESRCH"), {
    timeout: 10_000,
    interval: 25,
  });
}

/** Waits until the streamed reply holds a line of pids (`echo $$ $!`), and returns them. */
export async function streamedPids(streamed: readonly string[]): Promise<number[]> {
  return vi.waitFor(
    () => {
      const match = /(\d+) (\d+)/.exec(streamed.join(""));
      if (!match) {
        throw new Error("the command has not printed its pids yet");
      }
      return [Number(match[1]), Number(match[2])];
    },
    { timeout: 10_000, interval: 10 },
  );
}
