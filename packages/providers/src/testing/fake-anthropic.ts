import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  errorBody,
  FAKE_INPUT_TOKENS,
  plainMessage,
  type ReplyContext,
  type ScriptedReply,
  streamReply,
} from "./anthropic-replies";
import { type RecordedRequest, recordRequest } from "./recorded-request";

export type { RecordedRequest } from "./recorded-request";

/**
 * A stand-in for the Anthropic Messages API, for running the real Claude Code CLI in tests:
 * streaming `POST /v1/messages` requests take the scripted replies in order; everything else is
 * answered so the CLI goes on, and recorded.
 */
export interface FakeAnthropic {
  /** The base URL to give the CLI as ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** Every request, in the order they came. */
  readonly requests: readonly RecordedRequest[];
  /** The streaming message requests: the ones scripted replies answer (the conversation's turns). */
  readonly messageRequests: readonly RecordedRequest[];
  /** Streaming message requests that came when no reply was queued; they got a stock text. */
  readonly unscripted: readonly RecordedRequest[];
  /** Requests to endpoints the fake does not know; they got a 404. */
  readonly unknown: readonly RecordedRequest[];
  /** Queues replies for the next streaming message requests. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Resolves with the first request (already come or still to come) that matches. */
  waitFor(match: (request: RecordedRequest) => boolean): Promise<RecordedRequest>;
  /**
   * Resolves once the next `hang()` reply (the first for the first call, and so on) has started:
   * the model is then busy until the server closes.
   */
  hanging(): Promise<RecordedRequest>;
  /** Ends hanging responses and stops listening. */
  close(): Promise<void>;
}

export const UNSCRIPTED_REPLY = "(fake-anthropic: no reply was scripted for this request)";

interface Waiter {
  readonly match: (request: RecordedRequest) => boolean;
  readonly resolve: (request: RecordedRequest) => void;
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const messageRequests: RecordedRequest[] = [];
  const unscripted: RecordedRequest[] = [];
  const unknown: RecordedRequest[] = [];
  const hangingRequests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  let waiters: Waiter[] = [];
  let counter = 0;
  let hangsAwaited = 0;

  const settleWaiters = () => {
    waiters = waiters.filter((waiter) => {
      const found = requests.find(waiter.match);
      if (found) {
        waiter.resolve(found);
      }
      return !found;
    });
  };
  const record = (list: RecordedRequest[], request: RecordedRequest) => {
    list.push(request);
    settleWaiters();
  };

  const handle = (req: IncomingMessage, res: ServerResponse, request: RecordedRequest) => {
    counter += 1;
    const model = stringField(request.body, "model") ?? "claude-sonnet-4-5";
    const context: ReplyContext = {
      messageId: `msg_fake_${counter}`,
      toolUseId: `toolu_fake_${counter}`,
      model,
    };
    const pathname = request.path.split("?")[0];
    if (req.method === "HEAD" || (req.method === "GET" && pathname === "/")) {
      res.writeHead(200).end();
      return;
    }
    if (req.method === "POST" && pathname === "/v1/messages/count_tokens") {
      sendJson(res, 200, { input_tokens: FAKE_INPUT_TOKENS });
      return;
    }
    if (req.method === "POST" && pathname === "/v1/messages") {
      if (!isStreaming(request.body)) {
        sendJson(res, 200, plainMessage(context, UNSCRIPTED_REPLY));
        return;
      }
      messageRequests.push(request);
      const reply = queue.shift();
      if (!reply) {
        record(unscripted, request);
        streamReply(res, { kind: "text", text: UNSCRIPTED_REPLY }, context);
        return;
      }
      streamReply(res, reply, context);
      if (reply.kind === "hang") {
        open.add(res);
        res.on("close", () => open.delete(res));
        record(hangingRequests, request);
      }
      return;
    }
    record(unknown, request);
    sendJson(
      res,
      404,
      errorBody("not_found_error", `fake-anthropic does not serve ${req.method} ${pathname}`),
    );
  };

  const server = createServer((req, res) => {
    void recordRequest(req).then((request) => {
      requests.push(request);
      handle(req, res, request);
      settleWaiters();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests,
    unscripted,
    unknown,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    waitFor: (match) =>
      new Promise((resolve) => {
        waiters.push({ match, resolve });
        settleWaiters();
      }),
    hanging: () => {
      // Each call waits for the next hang, whether it has come already or is still to come.
      const index = hangsAwaited++;
      return new Promise((resolve) => {
        waiters.push({ match: (request) => hangingRequests.indexOf(request) === index, resolve });
        settleWaiters();
      });
    },
    close: async () => {
      for (const res of open) {
        res.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function stringField(body: unknown, field: string): string | undefined {
  const value =
    body !== null && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" ? value : undefined;
}

function isStreaming(body: unknown): boolean {
  return body !== null && typeof body === "object" && (body as Record<string, unknown>).stream === true;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
