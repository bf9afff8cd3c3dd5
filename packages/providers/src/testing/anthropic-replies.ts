import type { ServerResponse } from "node:http";

/** One scripted answer of the fake Messages API to a streaming `POST /v1/messages`. */
export type ScriptedReply =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "toolUse"; readonly name: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly kind: "error"; readonly status: number; readonly type: string; readonly message: string }
  | { readonly kind: "hang" };

export const text = (t: string): ScriptedReply => ({ kind: "text", text: t });

/** A tool call; the message ends with stop_reason `tool_use`, so the CLI runs the tool and asks again. */
export const toolUse = (name: string, input: Readonly<Record<string, unknown>>): ScriptedReply => ({
  kind: "toolUse",
  name,
  input,
});

/** An HTTP error with the API's error body, e.g. `error(400, "invalid_request_error", "…")`. */
export const error = (status: number, type: string, message: string): ScriptedReply => ({
  kind: "error",
  status,
  type,
  message,
});

/** Starts the message and never finishes it, until the server is closed or the client goes away. */
export const hang = (): ScriptedReply => ({ kind: "hang" });

// Fixed token counts, so tests can check what the CLI reports without knowing its tokenizer.
export const FAKE_INPUT_TOKENS = 100;
export const FAKE_OUTPUT_TOKENS = 20;

export interface ReplyContext {
  readonly messageId: string;
  readonly toolUseId: string;
  readonly model: string;
}

function sse(
  res: ServerResponse,
  event: Readonly<Record<string, unknown>> & { readonly type: string },
): void {
  res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

function startMessage(res: ServerResponse, context: ReplyContext): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  sse(res, {
    type: "message_start",
    message: {
      id: context.messageId,
      type: "message",
      role: "assistant",
      model: context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: FAKE_INPUT_TOKENS, output_tokens: 1 },
    },
  });
}

function finishMessage(res: ServerResponse, stopReason: "end_turn" | "tool_use"): void {
  sse(res, {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: FAKE_OUTPUT_TOKENS },
  });
  sse(res, { type: "message_stop" });
  res.end();
}

/** Writes a reply as the Messages API streams it: message_start, one content block, message_delta, message_stop. */
export function streamReply(res: ServerResponse, reply: ScriptedReply, context: ReplyContext): void {
  switch (reply.kind) {
    case "error":
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify(errorBody(reply.type, reply.message)));
      return;
    case "hang":
      startMessage(res, context);
      sse(res, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
      return;
    case "text":
      startMessage(res, context);
      sse(res, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
      // Two deltas, so a client that only keeps the last delta shows up in tests.
      for (const piece of splitInTwo(reply.text)) {
        sse(res, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } });
      }
      sse(res, { type: "content_block_stop", index: 0 });
      finishMessage(res, "end_turn");
      return;
    case "toolUse": {
      startMessage(res, context);
      sse(res, {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: context.toolUseId, name: reply.name, input: {} },
      });
      for (const piece of splitInTwo(JSON.stringify(reply.input))) {
        sse(res, {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: piece },
        });
      }
      sse(res, { type: "content_block_stop", index: 0 });
      finishMessage(res, "tool_use");
      return;
    }
  }
}

/** The whole message at once, for requests without `stream: true` (the CLI's small side calls). */
export function plainMessage(context: ReplyContext, replyText: string): Record<string, unknown> {
  return {
    id: context.messageId,
    type: "message",
    role: "assistant",
    model: context.model,
    content: [{ type: "text", text: replyText }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: FAKE_INPUT_TOKENS, output_tokens: FAKE_OUTPUT_TOKENS },
  };
}

export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

function splitInTwo(s: string): string[] {
  const half = Math.ceil(s.length / 2);
  return s.length < 2 ? [s] : [s.slice(0, half), s.slice(half)];
}
