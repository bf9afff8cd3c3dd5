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
      const ctx = {
        bin: options.bin,
        env: options.env,
        billing: options.billing,
        cwd: options.session.cwd,
        state,
        signal: controller.signal,
      };
      const done = runClaudeTurn(ctx, input, io);
      running = { controller, done };
      try {
        return await done;
      } finally {
        state = ctx.state;
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
