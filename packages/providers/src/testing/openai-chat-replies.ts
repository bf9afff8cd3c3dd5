import type { ServerResponse } from "node:http";

/** Token counts a scripted reply reports in its last chunk (`stream_options.include_usage`). */
export interface ChatUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** One scripted answer of the fake Chat Completions API to a streaming `POST /chat/completions`. */
export type ChatReply =
  | {
      readonly kind: "text";
      readonly text: string;
      /** Streamed first as `reasoning_content`, as DeepSeek's reasoner does. */
      readonly reasoning?: string;
      readonly usage?: ChatUsage;
    }
  | {
      readonly kind: "toolCall";
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** Text the model says before the call, in the same answer. */
      readonly text?: string;
      readonly usage?: ChatUsage;
    }
  | { readonly kind: "error"; readonly status: number; readonly message: string; readonly type: string }
  | { readonly kind: "hang"; readonly text: string };

// Fixed token counts, so tests can check usage and cost without a tokenizer.
export const FAKE_CHAT_PROMPT_TOKENS = 1_000;
export const FAKE_CHAT_COMPLETION_TOKENS = 50;

export const chatText = (
  text: string,
  options: { readonly reasoning?: string; readonly usage?: ChatUsage } = {},
): ChatReply => ({ kind: "text", text, ...options });

/** A call of one tool (finish_reason `tool_calls`), so the client runs it and asks again. */
export const chatToolCall = (
  name: string,
  input: Readonly<Record<string, unknown>>,
  options: { readonly text?: string; readonly usage?: ChatUsage } = {},
): ChatReply => ({ kind: "toolCall", name, input, ...options });

/** An HTTP error with an OpenAI-style body, e.g. `chatError(401, "Incorrect API key provided")`. */
export const chatError = (status: number, message: string, type = "invalid_request_error"): ChatReply => ({
  kind: "error",
  status,
  message,
  type,
});

/** Streams `text` (possibly none), then neither ends nor sends more until the server closes. */
export const chatHang = (text = ""): ChatReply => ({ kind: "hang", text });

export interface ChatReplyContext {
  readonly completionId: string;
  readonly toolCallId: string;
  readonly model: string;
  readonly includeUsage: boolean;
}

// A fixed creation time: the fake's output does not depend on the clock.
const CREATED = 1_767_225_600;

function chunk(
  res: ServerResponse,
  context: ChatReplyContext,
  choice: { readonly delta: Record<string, unknown>; readonly finish_reason: string | null } | null,
  usage?: ChatUsage,
): void {
  const body = {
    id: context.completionId,
    object: "chat.completion.chunk",
    created: CREATED,
    model: context.model,
    choices: choice === null ? [] : [{ index: 0, ...choice }],
    ...(usage === undefined
      ? {}
      : {
          usage: {
            prompt_tokens: usage.promptTokens,
            completion_tokens: usage.completionTokens,
            total_tokens: usage.promptTokens + usage.completionTokens,
          },
        }),
  };
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

function streamText(
  res: ServerResponse,
  context: ChatReplyContext,
  text: string,
  field: "content" | "reasoning_content" = "content",
): void {
  // Two deltas, so a client that only keeps the last delta shows up in tests.
  for (const piece of splitInTwo(text)) {
    chunk(res, context, { delta: { [field]: piece }, finish_reason: null });
  }
}

function finish(
  res: ServerResponse,
  context: ChatReplyContext,
  reason: "stop" | "tool_calls",
  usage: ChatUsage | undefined,
): void {
  chunk(res, context, { delta: {}, finish_reason: reason });
  if (context.includeUsage) {
    // As OpenAI sends it: a last chunk with no choices and the whole request's usage.
    chunk(res, context, null, {
      promptTokens: usage?.promptTokens ?? FAKE_CHAT_PROMPT_TOKENS,
      completionTokens: usage?.completionTokens ?? FAKE_CHAT_COMPLETION_TOKENS,
    });
  }
  res.end("data: [DONE]\n\n");
}

function start(res: ServerResponse, context: ChatReplyContext): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  chunk(res, context, { delta: { role: "assistant", content: "" }, finish_reason: null });
}

/** Writes a reply as the Chat Completions API streams it: `chat.completion.chunk`s, then `[DONE]`. */
export function streamChatReply(res: ServerResponse, reply: ChatReply, context: ChatReplyContext): void {
  switch (reply.kind) {
    case "error":
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify(chatErrorBody(reply.message, reply.type)));
      return;
    case "hang":
      start(res, context);
      streamText(res, context, reply.text);
      return;
    case "text":
      start(res, context);
      streamText(res, context, reply.reasoning ?? "", "reasoning_content");
      streamText(res, context, reply.text);
      finish(res, context, "stop", reply.usage);
      return;
    case "toolCall": {
      start(res, context);
      streamText(res, context, reply.text ?? "");
      const call = { index: 0, id: context.toolCallId, type: "function" };
      chunk(res, context, {
        delta: { tool_calls: [{ ...call, function: { name: reply.name, arguments: "" } }] },
        finish_reason: null,
      });
      for (const piece of splitInTwo(JSON.stringify(reply.input))) {
        chunk(res, context, {
          delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] },
          finish_reason: null,
        });
      }
      finish(res, context, "tool_calls", reply.usage);
      return;
    }
  }
}

export function chatErrorBody(message: string, type: string): Record<string, unknown> {
  return { error: { message, type, param: null, code: null } };
}

function splitInTwo(s: string): string[] {
  const half = Math.ceil(s.length / 2);
  if (s === "") {
    return [];
  }
  return s.length < 2 ? [s] : [s.slice(0, half), s.slice(half)];
}
