import { RelayError } from "@oar/core";
import type { PeerToolRequest } from "@oar/schema";
import { expect } from "vitest";

export const TOKEN = "oarp_S3cr3tInviteToken_42";
export const BASE = "https://build-box.example.com";
export const HOST = "build-box.example.com";

export const TOOL_REQUEST: PeerToolRequest = {
  call: { action: "list_sessions", relay: "build-box" },
  origin: {
    relay: "laptop",
    session: "ses_caller",
    title: "Fix the build",
    model: "scripted",
    hops: 0,
    userUnlocked: true,
  },
};

export const INFO = { name: "build-box", version: "0.1.0", features: ["tool", "preflight"] };

/** A success with action-specific fields, which must pass through untouched. */
export const TOOL_RESULT = {
  ok: true,
  relay: "build-box",
  summary: "2 sessions",
  sessions: [{ id: "ses_1", title: "Büild" }, { id: "ses_2" }],
};

export interface SentRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string;
}

type Answer = (request: Request) => Response | Promise<Response>;

/**
 * A fetch that records what it is sent and answers with the next of `answers` (the last one
 * repeats). It sees exactly what a peer's Hono `app.request` would.
 */
export function fakePeer(...answers: Answer[]): { fetch: typeof globalThis.fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: await request.clone().text(),
    });
    const answer = answers[Math.min(sent.length, answers.length) - 1];
    if (!answer) {
      throw new Error("fakePeer needs at least one answer");
    }
    return answer(request);
  };
  return { fetch, sent };
}

export function json(body: unknown, status = 200, prefix = ""): Answer {
  return () =>
    new Response(prefix + JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function text(body: string, status = 200): Answer {
  return () => new Response(body, { status, headers: { "content-type": "text/plain" } });
}

const encoder = new TextEncoder();

/** A body sent as these byte chunks, one per read. */
export function chunks(parts: readonly Uint8Array[], status = 200): Answer {
  return () => {
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts[index++];
        if (part) {
          controller.enqueue(part);
        } else {
          controller.close();
        }
      },
    });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };
}

export function bytes(textPart: string): Uint8Array {
  return encoder.encode(textPart);
}

/** The connection refused, as undici reports it: a TypeError whose cause holds the code. */
export function refused(): Answer {
  return () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 203.0.113.7:443"), { code: "ECONNREFUSED" });
    throw new TypeError("fetch failed", { cause });
  };
}

/** The response starts, keep-alive spaces come, and the JSON never does. */
export function endlessBody(): Answer {
  return () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes("  "));
        },
      }),
      { status: 200 },
    );
}

/** No response until the request's signal aborts (a peer that waits and waits). */
export function hangUntilAborted(): Answer {
  return (request) =>
    new Promise<Response>((_, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });
}

/** No response ever, whatever the signal says (a fetch that ignores it). */
export function hangForever(): Answer {
  return () => new Promise<Response>(() => undefined);
}

/** A peer that sends `unit` again and again, without end, and what it has sent. */
export function endlessStream(
  unit: string,
  options: { readonly status?: number; readonly prefix?: string; readonly contentLength?: number } = {},
): { readonly answer: Answer; sentBytes(): number; cancelled(): boolean } {
  const chunk = bytes(unit.repeat(Math.max(1, Math.floor(65_536 / unit.length))));
  let sent = 0;
  let cancelled = false;
  const answer: Answer = () => {
    let first = true;
    const body = new ReadableStream<Uint8Array>(
      {
        // One chunk per read the client asks for: what it was sent is what it read.
        pull(controller) {
          const part = first && options.prefix !== undefined ? bytes(options.prefix) : chunk;
          first = false;
          sent += part.byteLength;
          controller.enqueue(part);
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.contentLength !== undefined) {
      headers["content-length"] = String(options.contentLength);
    }
    return new Response(body, { status: options.status ?? 200, headers });
  };
  return { answer, sentBytes: () => sent, cancelled: () => cancelled };
}

/** The RelayError a call fails with; fails the test when it does not fail. */
export async function failure(call: Promise<unknown>): Promise<RelayError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    return error as RelayError;
  }
  throw new Error("expected the call to fail");
}
