import { FakeClock } from "@oar/core/testing";
import type { JsonValue, Provider, TurnInput, TurnOutcome, Worker, WorkerSession } from "@oar/engine";
import { createRecordingTurnIO, type RecordingTurnIO } from "@oar/engine/testing";
import { onTestFinished } from "vitest";
import { type ApiChatSourceOptions, apiChatProviderSource } from "../../src";
import { type FakeOpenAiChat, type RecordedRequest, startFakeOpenAiChat } from "../../src/testing";

export const TEST_API_KEY = "xai-test-key-0123456789";

export const SESSION: WorkerSession = {
  id: "ses_api1",
  title: "Triage",
  model: "grok-4.7",
  effort: null,
  mode: "agent",
  cwd: null,
  providerState: null,
};

export interface ApiChatTestbed {
  readonly fake: FakeOpenAiChat;
  readonly clock: FakeClock;
  readonly provider: Provider;
  /** Starts a worker, as the relay does for a session (with its kept provider state). */
  startWorker(providerState?: JsonValue): Worker;
}

/**
 * A fake chat API on loopback and the `grok` (or `deepseek`) provider pointed at it, with the
 * entry's other fields as given; the fake closes when the test ends.
 */
export async function apiChatTestbed(
  options: {
    readonly id?: "grok" | "deepseek";
    readonly entry?: Readonly<Record<string, unknown>>;
    readonly source?: ApiChatSourceOptions;
  } = {},
): Promise<ApiChatTestbed> {
  const fake = await startFakeOpenAiChat();
  onTestFinished(() => fake.close());
  const id = options.id ?? "grok";
  const source = apiChatProviderSource(options.source);
  const entry = { apiKey: TEST_API_KEY, baseUrl: fake.url, ...options.entry };
  const provider = source.providers({ [id]: entry }).find((found) => found.info.id === id);
  if (provider === undefined) {
    throw new Error(`no ${id} provider`);
  }
  return {
    fake,
    clock: new FakeClock(),
    provider,
    startWorker: (providerState = null) => provider.startWorker({ ...SESSION, providerState }) as Worker,
  };
}

export interface StartedTurn {
  readonly io: RecordingTurnIO;
  readonly outcome: Promise<TurnOutcome>;
}

/** Starts one turn on the worker with a recording TurnIO on the testbed's clock. */
export function startTurn(
  bed: ApiChatTestbed,
  worker: Worker,
  input: Partial<TurnInput> & { readonly prompt: string },
  toolResult?: (call: unknown) => unknown,
): StartedTurn {
  const io = createRecordingTurnIO({
    clock: bed.clock,
    ...(toolResult === undefined ? {} : { toolResult }),
  });
  const outcome = worker.runTurn(
    {
      turnId: "trn_1",
      model: "grok-4.7",
      effort: null,
      mode: "agent",
      cwd: null,
      ...input,
    },
    io,
  );
  return { io, outcome };
}

/** The parts of a Chat Completions request body the tests look at. */
export interface ChatBody {
  readonly model: string;
  readonly messages: readonly {
    readonly role: string;
    readonly content: unknown;
    readonly tool_calls?: readonly {
      readonly id: string;
      readonly function: { readonly name: string; readonly arguments: string };
    }[];
    readonly tool_call_id?: string;
  }[];
  readonly tools?: readonly {
    readonly type: string;
    readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown };
  }[];
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
}

export function chatBodyOf(request: RecordedRequest | undefined): ChatBody {
  if (request === undefined) {
    throw new Error("the fake API got no such request");
  }
  return request.body as ChatBody;
}

/** The request's messages without the system prompt, as `role: content` lines for compact checks. */
export function dialogueOf(request: RecordedRequest | undefined): string[] {
  return chatBodyOf(request)
    .messages.filter((message) => message.role !== "system")
    .map((message) => {
      if (message.role === "tool") {
        return `tool(${message.tool_call_id}): ${String(message.content)}`;
      }
      const calls = (message.tool_calls ?? []).map(
        (call) => ` [${call.function.name} ${call.function.arguments}]`,
      );
      return `${message.role}: ${message.content ?? ""}${calls.join("")}`;
    });
}
