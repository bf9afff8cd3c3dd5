import { describe, expect, it, onTestFinished } from "vitest";
import {
  chatError,
  chatHang,
  chatText,
  chatToolCall,
  FAKE_CHAT_PROMPT_TOKENS,
  startFakeOpenAiChat,
  UNSCRIPTED_CHAT_REPLY,
} from "../../src/testing";

async function started() {
  const fake = await startFakeOpenAiChat();
  onTestFinished(() => fake.close());
  return fake;
}

const post = (url: string, body: unknown, signal?: AbortSignal) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });

/** The `data:` payloads of a server-sent event stream, `[DONE]` as is. */
async function events(response: Response): Promise<unknown[]> {
  const body = await response.text();
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => (line === "data: [DONE]" ? "[DONE]" : JSON.parse(line.slice(6))));
}

type Chunk = {
  object: string;
  choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: unknown;
};

describe("the fake OpenAI-compatible Chat Completions API", () => {
  it("streams chat.completion.chunks ending with [DONE], usage last only when stream_options.include_usage", async () => {
    const fake = await started();
    fake.enqueue(chatText("Hi there"), chatText("Again"));
    const url = `${fake.url}/chat/completions`;

    const withUsage = await events(
      await post(url, { model: "m1", stream: true, stream_options: { include_usage: true }, messages: [] }),
    );
    expect(withUsage.at(-1)).toBe("[DONE]");
    const chunks = withUsage.slice(0, -1) as Chunk[];
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(
      chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? "")).join(""),
    ).toBe("Hi there");
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: FAKE_CHAT_PROMPT_TOKENS } });

    const without = (await events(await post(url, { model: "m1", stream: true, messages: [] }))).slice(
      0,
      -1,
    ) as Chunk[];
    expect(without.some((chunk) => chunk.usage !== undefined)).toBe(false);
    expect(fake.chatRequests.map((request) => (request.body as { model: string }).model)).toEqual([
      "m1",
      "m1",
    ]);
  });

  it("streams a tool call's arguments in pieces and finishes with tool_calls", async () => {
    const fake = await started();
    fake.enqueue(chatToolCall("relay_tool", { action: "relay_info" }));
    const chunks = (await events(await post(`${fake.url}/chat/completions`, { stream: true }))).slice(
      0,
      -1,
    ) as Chunk[];
    const calls = chunks.flatMap(
      (chunk) =>
        (chunk.choices[0]?.delta.tool_calls as { function: { name?: string; arguments: string } }[]) ?? [],
    );
    expect(calls[0]?.function.name).toBe("relay_tool");
    expect(JSON.parse(calls.map((call) => call.function.arguments).join(""))).toEqual({
      action: "relay_info",
    });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("answers errors with an OpenAI-style body, unscripted requests with a stock text, and refuses the rest", async () => {
    const fake = await started();
    fake.enqueue(chatError(401, "Incorrect API key provided"));
    const url = `${fake.url}/chat/completions`;
    const refused = await post(url, { stream: true });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: {
        message: "Incorrect API key provided",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
    const stock = (await events(await post(url, { stream: true }))).slice(0, -1) as Chunk[];
    expect(stock.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(UNSCRIPTED_CHAT_REPLY);
    expect(fake.unscripted).toHaveLength(1);
    expect((await post(url, { stream: false })).status).toBe(400);
    expect((await post(`${fake.url}/models`, {})).status).toBe(404);
    expect(fake.requests).toHaveLength(4);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it("hangs after the text it was given until the client goes away or the server closes", async () => {
    const fake = await started();
    fake.enqueue(chatHang("Par"));
    const client = new AbortController();
    const response = await post(`${fake.url}/chat/completions`, { stream: true }, client.signal);
    await fake.hanging();
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('"role":"assistant"');
    client.abort();
    await expect(reader?.read()).rejects.toThrow();
  });
});
