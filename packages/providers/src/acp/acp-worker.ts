import type { Clock, TimerId } from "@oar/core";
import type { TurnInput, TurnIO, TurnOutcome, Worker, WorkerSession } from "@oar/engine";
import type { PlaceholderValues } from "../command/placeholders";
import {
  type AcpAgent,
  AcpStartFailure,
  errorText,
  isAuthRequired,
  openAcpSession,
  relayMcpServers,
  startAcpAgent,
} from "./acp-agent";
import { exitDescription } from "./acp-process";
import { configOptionOf, selectOptionValues } from "./acp-session-settings";
import { acpProviderStateJson, readAcpProviderState } from "./acp-state";
import { createAcpTranscript } from "./acp-transcript";
import { notSignedIn, runAcpPrompt } from "./acp-turn";

/** How the relay starts and talks to one ACP agent (a definition of the settings, or Copilot). */
export interface AcpAgentSpec {
  readonly providerId: string;
  /** The agent's name in what the relay says: `Copilot asked to use …`. */
  readonly agentName: string;
  /** The argv for a turn; a turn whose argv differs from the running process's starts a new one. */
  argv(values: PlaceholderValues): readonly [string, ...string[]];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutSeconds?: number;
  /** Real milliseconds between SIGTERM and SIGKILL of the agent's process group. */
  readonly killGraceMs: number;
  /** Real milliseconds a cancelled prompt gets to end before the agent is killed. */
  readonly cancelGraceMs: number;
  /**
   * An agent idle this long (on `clock`) is ended, so idle sessions hold no memory (a Copilot
   * process holds 300 MB and more); the next turn starts another and reopens the conversation.
   */
  readonly idleMs: number;
  readonly clock: Clock;
  /** Told what the agent reports about itself: the models it offers, whether it is signed in. */
  readonly report: AcpAgentReports;
}

export interface AcpAgentReports {
  modelsOffered(models: readonly string[]): void;
  signedOut(message: string): void;
  signedIn(): void;
}

const lostLine = (agentName: string, id: string, why: string) =>
  `⚠️ ${agentName} no longer has this session's conversation (${id}): ${why}, so this turn starts a new one without the earlier messages.`;

const noRelayToolLine = (agentName: string) =>
  `⚠️ ${agentName} does not take MCP servers over HTTP, so relay_tool is not available to it.`;

/**
 * A session's worker: one agent process, started at the first turn and kept between turns (a new
 * one when it died or its argv changed: then the conversation is reopened with `session/load`).
 */
export function createAcpWorker(spec: AcpAgentSpec, session: WorkerSession): Worker {
  let state = readAcpProviderState(session.providerState);
  let agent: AcpAgent | undefined;
  let running: { readonly stop: AbortController; readonly done: Promise<unknown> } | undefined;
  let closed = false;
  let idleTimer: TimerId | undefined;

  const stopIdleTimer = () => {
    if (idleTimer !== undefined) {
      spec.clock.clearTimeout(idleTimer);
      idleTimer = undefined;
    }
  };
  const startIdleTimer = () => {
    stopIdleTimer();
    if (!closed && agent !== undefined) {
      idleTimer = spec.clock.setTimeout(() => {
        idleTimer = undefined;
        if (running === undefined) {
          void dropAgent();
        }
      }, spec.idleMs);
    }
  };

  const dropAgent = async () => {
    const dropped = agent;
    agent = undefined;
    await dropped?.process.kill();
  };

  const turn = async (input: TurnInput, io: TurnIO, stop: AbortController): Promise<TurnOutcome> => {
    const cwd = input.cwd ?? session.cwd ?? process.cwd();
    const argv = spec.argv({ model: input.model, effort: input.effort ?? "", session: session.id, cwd });
    const [program] = argv;
    const transcript = createAcpTranscript((text) => io.appendText(text));
    const access = await io.agentAccess();
    if (
      agent !== undefined &&
      (agent.process.exit() !== undefined || agent.process.argv.join("\0") !== argv.join("\0"))
    ) {
      await dropAgent();
    }
    try {
      if (agent === undefined) {
        agent = await startAcpAgent({ argv, cwd, env: spec.env, killGraceMs: spec.killGraceMs });
      }
      if (agent.sessionId === null) {
        const mcpServers = relayMcpServers(agent, access);
        if (access !== null && mcpServers.length === 0) {
          transcript.warn(noRelayToolLine(spec.agentName));
        }
        const opened = await openAcpSession(agent, { keptId: state.acpSessionId, cwd, mcpServers });
        if (opened.kind === "new") {
          if (opened.lost !== undefined && state.acpSessionId !== null) {
            transcript.warn(lostLine(spec.agentName, state.acpSessionId, opened.lost));
          }
          state = { acpSessionId: opened.sessionId };
          await io.saveProviderState(acpProviderStateJson(state));
        }
        spec.report.signedIn();
        reportModels(spec, agent);
      }
    } catch (error) {
      const failed = agent;
      await dropAgent();
      if (isAuthRequired(error)) {
        const message = notSignedIn(spec.agentName, errorText(error));
        spec.report.signedOut(message);
        return { status: "error", error: message };
      }
      if (stop.signal.aborted) {
        return { status: "stopped" };
      }
      return { status: "error", error: startFailure(spec.agentName, program, failed, error) };
    }
    let timedOut = false;
    const timer =
      spec.timeoutSeconds === undefined
        ? undefined
        : io.clock.setTimeout(() => {
            timedOut = true;
            stop.abort();
          }, spec.timeoutSeconds * 1000);
    try {
      const result = await runAcpPrompt(
        {
          agentName: spec.agentName,
          program,
          agent,
          transcript,
          signal: stop.signal,
          timedOut: () => timedOut,
          timeoutSeconds: spec.timeoutSeconds,
          cancelGraceMs: spec.cancelGraceMs,
          signedOut: spec.report.signedOut,
        },
        input,
        io,
      );
      if (result.agentLost) {
        await dropAgent();
      }
      return result.outcome;
    } finally {
      if (timer !== undefined) {
        io.clock.clearTimeout(timer);
      }
    }
  };

  return {
    async runTurn(input, io) {
      if (closed) {
        return { status: "error", error: `The worker of provider ${spec.providerId} was closed.` };
      }
      stopIdleTimer();
      const stop = new AbortController();
      const forward = () => stop.abort();
      io.signal.addEventListener("abort", forward, { once: true });
      if (io.signal.aborted) {
        stop.abort();
      }
      const done = turn(input, io, stop);
      running = { stop, done };
      try {
        return await done;
      } finally {
        running = undefined;
        io.signal.removeEventListener("abort", forward);
        startIdleTimer();
      }
    },
    async close() {
      closed = true;
      stopIdleTimer();
      const current = running;
      if (current !== undefined) {
        current.stop.abort();
        await current.done.catch(() => undefined);
      }
      await dropAgent();
    },
  };
}

/** Why the agent could not take the turn: it did not start, it ended while opening the session, or it refused to open it. */
function startFailure(
  agentName: string,
  program: string,
  failed: AcpAgent | undefined,
  error: unknown,
): string {
  if (error instanceof AcpStartFailure) {
    return `${agentName} could not start: ${error.message}`;
  }
  const exit = failed?.process.exit();
  if (failed !== undefined && (exit !== undefined || failed.process.connection.signal.aborted)) {
    return `${agentName} stopped while opening the session: ${exitDescription(program, exit, failed.process.stderrTail())}`;
  }
  return `${agentName} could not open the session: ${errorText(error)}`;
}

function reportModels(spec: AcpAgentSpec, agent: AcpAgent): void {
  const option = configOptionOf(agent.offer, "model");
  if (option !== undefined) {
    spec.report.modelsOffered(selectOptionValues(option));
  }
}
