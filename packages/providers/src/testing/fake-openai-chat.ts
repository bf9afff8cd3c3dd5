import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type ChatReply, type ChatReplyContext, chatErrorBody, streamChatReply } from "./openai-chat-replies";
import { type RecordedRequest, recordRequest } from "./recorded-request";

/**
 * A stand-in for an OpenAI-compatible Chat Completions API (xAI, DeepSeek), for running the relay's
 * own agent loop in tests: streaming `POST /v1/chat/completions` requests take the scripted replies
 * in order; every request is recorded.
 */
export interface FakeOpenAiChat {
  /** The base URL to give the client, `/v1` included (it posts to `${url}/chat/completions`). */
  readonly url: string;
  /** Every request, in the order they came. */
  readonly requests: readonly RecordedRequest[];
  /** The chat completion requests: the ones scripted replies answer. */
  readonly chatRequests: readonly RecordedRequest[];
  /** Chat requests that came when no reply was queued; they got a stock text. */
  readonly unscripted: readonly RecordedRequest[];
  /** Queues replies for the next chat completion requests. */
  enqueue(...replies: ChatReply[]): void;
  /** Resolves once the next `chatHang()` reply (the first for the first call, and so on) has started. */
  hanging(): Promise<RecordedRequest>;
  /** Ends hanging responses and stops listening. */
  close(): Promise<void>;
}

export const UNSCRIPTED_CHAT_REPLY = "(fake-openai-chat: no reply was scripted for this request)";

export async function startFakeOpenAiChat(): Promise<FakeOpenAiChat> {
  const queue: ChatReply[] = [];
  const requests: RecordedRequest[] = [];
  const chatRequests: RecordedRequest[] = [];
  const unscripted: RecordedRequest[] = [];
  const hangingRequests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  let hangWaiters: { readonly index: number; readonly resolve: (request: RecordedRequest) => void }[] = [];
  let counter = 0;
  let hangsAwaited = 0;

  const settleHangWaiters = () => {
    hangWaiters = hangWaiters.filter((waiter) => {
      const found = hangingRequests[waiter.index];
      if (found !== undefined) {
        waiter.resolve(found);
      }
      return found === undefined;
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse, request: RecordedRequest) => {
    const pathname = request.path.split("?")[0];
    if (req.method !== "POST" || pathname !== "/v1/chat/completions") {
      sendJson(
        res,
        404,
        chatErrorBody(`fake-openai-chat does not serve ${req.method} ${pathname}`, "not_found"),
      );
      return;
    }
    if (!isStreaming(request.body)) {
      // The relay always streams; a plain request here is a bug in the client under test.
      sendJson(
        res,
        400,
        chatErrorBody("fake-openai-chat serves only streaming requests", "invalid_request_error"),
      );
      return;
    }
    counter += 1;
    chatRequests.push(request);
    const context: ChatReplyContext = {
      completionId: `chatcmpl-fake-${counter}`,
      toolCallId: `call_fake_${counter}`,
      model: stringField(request.body, "model") ?? "fake-model",
      includeUsage: includesUsage(request.body),
    };
    const reply = queue.shift();
    if (reply === undefined) {
      unscripted.push(request);
      streamChatReply(res, { kind: "text", text: UNSCRIPTED_CHAT_REPLY }, context);
      return;
    }
    streamChatReply(res, reply, context);
    if (reply.kind === "hang") {
      open.add(res);
      res.on("close", () => open.delete(res));
      hangingRequests.push(request);
      settleHangWaiters();
    }
  };

  const server = createServer((req, res) => {
    void recordRequest(req).then((request) => {
      requests.push(request);
      handle(req, res, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests,
    unscripted,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    hanging: () =>
      new Promise((resolve) => {
        // Each call waits for the next hang, whether it has come already or is still to come.
        hangWaiters.push({ index: hangsAwaited++, resolve });
        settleHangWaiters();
      }),
    close: async () => {
      for (const res of open) {
        res.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function fieldOf(body: unknown, field: string): unknown {
  return body !== null && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
}

function stringField(body: unknown, field: string): string | undefined {
  const value = fieldOf(body, field);
  return typeof value === "string" ? value : undefined;
}

function isStreaming(body: unknown): boolean {
  return fieldOf(body, "stream") === true;
}

function includesUsage(body: unknown): boolean {
  return fieldOf(fieldOf(body, "stream_options"), "include_usage") === true;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
