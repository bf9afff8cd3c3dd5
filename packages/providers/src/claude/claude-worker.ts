import type { TurnOutcome, Worker, WorkerSession } from "@oar/engine";
import type { ClaudeBilling } from "./claude-invocation";
import { runClaudeTurn } from "./claude-turn";
import { readClaudeProviderState } from "./provider-state";

export interface ClaudeWorkerOptions {
  readonly bin: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `null` when the provider cannot bill anything (claude-api without a key): turns then fail with `notConfigured`. */
  readonly billing: ClaudeBilling | null;
  readonly notConfigured?: string;
  readonly session: WorkerSession;
  /**
   * Where the CLI runs when it is not the session's folder: made before each turn (a repository
   * session's clone, made at its first turn). Rejects with the reason the turn fails.
   */
  readonly prepareCwd?: (signal: AbortSignal) => Promise<string>;
  /** Tools the CLI may use without a card, except in plan mode (a clone's edits and shell). */
  readonly toolsWithoutCard?: readonly string[];
}

/** A session's worker: the CLI runs per turn, and the conversation lives on in the CLI's own store. */
export function createClaudeWorker(options: ClaudeWorkerOptions): Worker {
  let state = readClaudeProviderState(options.session.providerState);
  let running: { readonly controller: AbortController; readonly done: Promise<TurnOutcome> } | undefined;

  return {
    async runTurn(input, io) {
      if (options.billing === null) {
        return { status: "error", error: options.notConfigured ?? "This provider is not configured." };
      }
      const controller = new AbortController();
      const stop = () => controller.abort();
      io.signal.addEventListener("abort", stop, { once: true });
      if (io.signal.aborted) {
        stop();
      }
      const done = (async (): Promise<TurnOutcome> => {
        const prepared = await preparedCwd(options, controller.signal);
        if ("outcome" in prepared) {
          return prepared.outcome;
        }
        const ctx = {
          bin: options.bin,
          env: options.env,
          billing: options.billing as ClaudeBilling,
          cwd: prepared.cwd,
          state,
          signal: controller.signal,
          ...(options.toolsWithoutCard === undefined ? {} : { toolsWithoutCard: options.toolsWithoutCard }),
        };
        try {
          return await runClaudeTurn(ctx, input, io);
        } finally {
          state = ctx.state;
        }
      })();
      running = { controller, done };
      try {
        return await done;
      } finally {
        running = undefined;
        io.signal.removeEventListener("abort", stop);
      }
    },
    async close() {
      const turn = running;
      if (turn !== undefined) {
        turn.controller.abort();
        await turn.done.catch(() => undefined);
      }
    },
  };
}

/** The session's folder, or the one `prepareCwd` makes; the turn's outcome when that fails or is stopped. */
async function preparedCwd(
  options: ClaudeWorkerOptions,
  signal: AbortSignal,
): Promise<{ readonly cwd: string | null } | { readonly outcome: TurnOutcome }> {
  if (options.prepareCwd === undefined) {
    return { cwd: options.session.cwd };
  }
  try {
    return { cwd: await options.prepareCwd(signal) };
  } catch (error) {
    if (signal.aborted) {
      return { outcome: { status: "stopped" } };
    }
    return { outcome: { status: "error", error: error instanceof Error ? error.message : String(error) } };
  }
}
