import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Worker, WorkerSession } from "@oar/engine";
import { chatHistoryJson, readChatHistory } from "./api-chat-history";
import { DEFAULT_API_CHAT_PRICES } from "./api-chat-prices";
import type { ApiChatEntry } from "./api-chat-settings";
import { runApiChatTurn } from "./api-chat-turn";
import type { ApiChatVendor } from "./api-chat-vendors";

export interface ApiChatWorkerSpec {
  readonly vendor: ApiChatVendor;
  /** The owner's settings entry; `undefined` when there is no usable one, and turns fail with `notConfigured`. */
  readonly entry: ApiChatEntry | undefined;
  readonly notConfigured: string;
  readonly maxSteps: number;
  readonly timeoutSeconds: number;
}

/**
 * A session's worker: the conversation, read from the session's provider state when it starts
 * (a restarted relay goes on with it) and saved after every turn. Nothing runs between turns.
 */
export function createApiChatWorker(spec: ApiChatWorkerSpec, session: WorkerSession): Worker {
  const { vendor, entry } = spec;
  let history = readChatHistory(session.providerState);
  let running: { readonly stop: AbortController; readonly done: Promise<unknown> } | undefined;
  let closed = false;
  const api =
    entry === undefined
      ? undefined
      : createOpenAICompatible({
          name: vendor.id,
          baseURL: entry.baseUrl,
          apiKey: entry.apiKey,
          // Usage comes only in a stream's last chunk, and only when asked for.
          includeUsage: true,
        });

  return {
    async runTurn(input, io) {
      if (closed) {
        return { status: "error", error: `The worker of provider ${vendor.id} was closed.` };
      }
      if (entry === undefined || api === undefined) {
        return { status: "error", error: spec.notConfigured };
      }
      const stop = new AbortController();
      const forward = () => stop.abort();
      io.signal.addEventListener("abort", forward, { once: true });
      if (io.signal.aborted) {
        stop.abort();
      }
      const done = runApiChatTurn(
        {
          vendor,
          model: api.chatModel(input.model),
          baseUrl: entry.baseUrl,
          price: entry.prices[input.model] ?? DEFAULT_API_CHAT_PRICES[input.model],
          session,
          history,
          maxSteps: spec.maxSteps,
          timeoutSeconds: spec.timeoutSeconds,
          signal: stop.signal,
        },
        input,
        io,
      );
      running = { stop, done };
      try {
        const result = await done;
        // The worker goes on from what it saves, as a restarted relay would: no reasoning, plain JSON.
        const state = chatHistoryJson(result.history);
        history = readChatHistory(state);
        await io.saveProviderState(state);
        return result.outcome;
      } finally {
        running = undefined;
        io.signal.removeEventListener("abort", forward);
      }
    },
    async close() {
      closed = true;
      const current = running;
      if (current !== undefined) {
        current.stop.abort();
        await current.done.catch(() => undefined);
      }
    },
  };
}
