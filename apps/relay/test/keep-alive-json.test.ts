import { type Logger, RelayError } from "@oar/core";
import { FakeClock } from "@oar/core/testing";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { describe, expect, it } from "vitest";
import { keepAliveResponse, PLAIN_BODY_WITHIN_MS } from "../src/http/keep-alive-json";

const INTERVAL_MS = 25_000;

function recordingLogger(): Logger & { readonly errors: unknown[][] } {
  const errors: unknown[][] = [];
  return { errors, debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => errors.push(args) };
}

/** One route holding a call the way /v1/tool does; `run` stands for the engine. */
function heldCall(run: (signal: AbortSignal) => Promise<unknown>, clock: FakeClock, logger: Logger) {
  const app = new Hono();
  app.use(requestId({ generator: () => "req_held" }));
  app.post("/tool", (c) =>
    keepAliveResponse(c, { run, clock, intervalMs: INTERVAL_MS, logger, log: { sessionId: "ses_1" } }),
  );
  return app;
}

const decoder = new TextDecoder();

describe("a held call's response (DESIGN §4)", () => {
  it("writes a space at every interval while the call is pending, then the JSON", async () => {
    const clock = new FakeClock();
    let answer: (value: unknown) => void = () => {};
    const app = heldCall(() => new Promise((resolve) => (answer = resolve)), clock, recordingLogger());
    const response = app.request("/tool", { method: "POST" });
    // Not answered within PLAIN_BODY_WITHIN_MS: its body starts then, and its first space comes an
    // interval after the call began.
    await clock.advanceAsync(PLAIN_BODY_WITHIN_MS);
    const reader = (await response).body?.getReader();
    clock.advance(INTERVAL_MS - PLAIN_BODY_WITHIN_MS);
    clock.advance(INTERVAL_MS);
    answer({ ok: true, status: "done" });
    const chunks: string[] = [];
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      chunks.push(decoder.decode(read.value));
    }
    expect(chunks).toEqual([" ", " ", '{"ok":true,"status":"done"}']);
  });

  it("tells the work behind the call when the client stops reading, and writes nothing more", async () => {
    const clock = new FakeClock();
    let signal: AbortSignal | undefined;
    const app = heldCall(
      (s) => {
        signal = s;
        return new Promise(() => {});
      },
      clock,
      recordingLogger(),
    );
    const response = app.request("/tool", { method: "POST" });
    await clock.advanceAsync(PLAIN_BODY_WITHIN_MS);
    const reader = (await response).body?.getReader();
    expect(signal?.aborted).toBe(false);
    await reader?.cancel();
    expect(signal?.aborted).toBe(true);
    // The keep-alive timer went with it: writing to the cancelled body would throw here.
    expect(() => clock.advance(3 * INTERVAL_MS)).not.toThrow();
  });

  it("tells the work behind the call when the request's connection closes", async () => {
    let signal: AbortSignal | undefined;
    const app = heldCall(
      (s) => {
        signal = s;
        return new Promise(() => {});
      },
      new FakeClock(),
      recordingLogger(),
    );
    const connection = new AbortController();
    void app.request("/tool", { method: "POST", signal: connection.signal });
    await Promise.resolve();
    expect(signal?.aborted).toBe(false);
    connection.abort();
    expect(signal?.aborted).toBe(true);
  });

  it("a call answered within PLAIN_BODY_WITHIN_MS goes out as a plain body, and leaves no timer", async () => {
    const clock = new FakeClock();
    let answer: (value: unknown) => void = () => {};
    const app = heldCall(() => new Promise((resolve) => (answer = resolve)), clock, recordingLogger());
    const response = app.request("/tool", { method: "POST" });
    await clock.advanceAsync(PLAIN_BODY_WITHIN_MS - 1);
    answer({ ok: true, status: "done" });
    const body = await response;
    expect(await body.text()).toBe('{"ok":true,"status":"done"}');
    expect(body.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(clock.pendingTimers()).toBe(0);
  });

  it("answers a failed call with the INTERNAL envelope naming the request, and logs the failure", async () => {
    const logger = recordingLogger();
    const cause = new Error("the engine broke");
    const app = heldCall(() => Promise.reject(cause), new FakeClock(), logger);
    const response = await app.request("/tool", { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_INTERNAL",
      requestId: "req_held",
    });
    expect(logger.errors).toEqual([
      ["relay_tool call failed", { requestId: "req_held", sessionId: "ses_1", error: cause }],
    ]);
  });

  it("answers a call that failed with a coded fault (the database away) with that fault's envelope, not INTERNAL", async () => {
    const logger = recordingLogger();
    const cause = new RelayError(
      "REMOTE_RELAY_UNAVAILABLE",
      "The relay's database does not answer (connect ECONNREFUSED 127.0.0.1:5432). Nothing was changed; try again in a moment.",
      { retryable: true },
    );
    const app = heldCall(() => Promise.reject(cause), new FakeClock(), logger);
    const response = await app.request("/tool", { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_UNAVAILABLE",
      error: expect.stringContaining("does not answer"),
    });
    expect(logger.errors).toEqual([]);
  });
});
