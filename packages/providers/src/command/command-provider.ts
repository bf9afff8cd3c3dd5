import { basename } from "node:path";
import type { Provider, ProviderInfo, TurnOutcome, Worker } from "@oar/engine";
import type { CommandProviderDefinition } from "./definition";
import { DEFAULT_KILL_GRACE_MS } from "./process-group";
import { type CommandEnv, type CommandTurnContext, runCommandTurn } from "./run-command";

export interface CommandProviderOptions {
  /**
   * The environment commands start with (OAR_SESSION, OAR_RELAY_URL and OAR_AGENT_TOKEN are set
   * on top of it): the composition root passes the relay's, without its secrets.
   */
  readonly env: CommandEnv;
  /** How long, in real milliseconds, a killed command gets between SIGTERM and SIGKILL; default 2000. */
  readonly killGraceMs?: number;
}

/**
 * A provider running a CLI the owner configured in `settings.providers` (DESIGN §5). The
 * definition is taken as checked (`commandProviderSource` checks it first).
 */
export function createCommandProvider(
  id: string,
  definition: CommandProviderDefinition,
  options: CommandProviderOptions,
): Provider {
  const [program] = definition.command;
  const info: ProviderInfo = {
    id,
    label: definition.label ?? `Command: ${basename(program)}`,
    models: definition.models.map((model, index) =>
      index === 0 ? { id: model, default: true } : { id: model },
    ),
    efforts: definition.efforts ?? [],
    usageTracked: false,
  };
  const { env } = options;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  return {
    info,
    startWorker: (session) =>
      startCommandWorker({ providerId: id, definition, sessionId: session.id, env, killGraceMs }),
  };
}

interface RunningTurn {
  readonly stop: AbortController;
  readonly outcome: Promise<TurnOutcome>;
}

/** A worker holds nothing between turns; during one, it holds the command's process group. */
function startCommandWorker(context: CommandTurnContext): Worker {
  let running: RunningTurn | undefined;
  let closed = false;
  return {
    async runTurn(input, io) {
      if (closed) {
        return { status: "error", error: `The worker of provider ${context.providerId} was closed.` };
      }
      // One signal for both ways a turn is cut short: the relay's stop and this worker's close().
      const stop = new AbortController();
      const forward = () => stop.abort();
      io.signal.addEventListener("abort", forward, { once: true });
      if (io.signal.aborted) {
        stop.abort();
      }
      const turn: RunningTurn = { stop, outcome: runCommandTurn(context, input, io, stop.signal) };
      running = turn;
      try {
        return await turn.outcome;
      } finally {
        io.signal.removeEventListener("abort", forward);
        if (running === turn) {
          running = undefined;
        }
      }
    },
    async close() {
      closed = true;
      const turn = running;
      if (turn) {
        turn.stop.abort();
        // The outcome settles once the turn's process group is gone.
        await turn.outcome.catch(() => undefined);
      }
    },
  };
}
