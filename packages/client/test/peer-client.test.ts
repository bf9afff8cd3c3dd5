import type { RelayError } from "@oar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createPeerClient, MAX_RESPONSE_BYTES, type PeerClient } from "../src/index";
import {
  BASE,
  bytes,
  chunks,
  endlessBody,
  endlessStream,
  failure,
  fakePeer,
  HOST,
  hangForever,
  hangUntilAborted,
  INFO,
  json,
  refused,
  TOKEN,
  TOOL_REQUEST,
  TOOL_RESULT,
  text,
} from "./fake-peer";

type Answer = Parameters<typeof fakePeer>[number];

function client(...answers: Answer[]) {
  const peer = fakePeer(...answers);
  return { peer, client: createPeerClient({ url: BASE, token: TOKEN, fetch: peer.fetch }) };
}

/** The RelayError a call rejects with (fails the test if it resolves or throws anything else). */

const tool = (c: PeerClient, options: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  c.tool(TOOL_REQUEST, { timeoutMs: options.timeoutMs ?? 60_000, signal: options.signal });

describe("DESIGN §4 peer client: requests", () => {
  it.each([
    ["https://build-box.example.com", "https://build-box.example.com/v1/peer/"],
    ["https://build-box.example.com/", "https://build-box.example.com/v1/peer/"],
    ["https://build-box.example.com/relay", "https://build-box.example.com/relay/v1/peer/"],
    ["https://build-box.example.com/relay/", "https://build-box.example.com/relay/v1/peer/"],
    ["https://build-box.example.com/a/b/?x=1#top", "https://build-box.example.com/a/b/v1/peer/"],
    ["http://127.0.0.1:8787", "http://127.0.0.1:8787/v1/peer/"],
    ["http://[::1]:8787/", "http://[::1]:8787/v1/peer/"],
  ])("joins %s and the route path", async (url, prefix) => {
    const peer = fakePeer(json(INFO), json(TOOL_RESULT));
    const c = createPeerClient({ url, token: TOKEN, fetch: peer.fetch });
    await c.info();
    await tool(c);
    expect(peer.sent.map((r) => r.url)).toEqual([`${prefix}info`, `${prefix}tool`]);
  });

  it("info: GET with the bearer, no body, and the answer validated as PeerInfo", async () => {
    const { peer, client: c } = client(json({ ...INFO, extra: "dropped" }));
    await expect(c.info()).resolves.toEqual(INFO);
    const [sent] = peer.sent;
    expect(sent?.method).toBe("GET");
    expect(sent?.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(sent?.headers.get("accept")).toBe("application/json");
    expect(sent?.body).toBe("");
  });

  it("tool: POST { call, origin } as JSON with the bearer", async () => {
    const { peer, client: c } = client(json(TOOL_RESULT));
    await tool(c);
    const [sent] = peer.sent;
    expect(sent?.method).toBe("POST");
    expect(sent?.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(sent?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(sent?.body ?? "")).toEqual(TOOL_REQUEST);
  });

  it("tool: sends the request as given, fields this relay's schema does not know included", async () => {
    const { peer, client: c } = client(json(TOOL_RESULT));
    const request = { ...TOOL_REQUEST, origin: { ...TOOL_REQUEST.origin, newerField: 1 } };
    await c.tool(request, { timeoutMs: 1000 });
    expect(JSON.parse(peer.sent[0]?.body ?? "").origin.newerField).toBe(1);
  });

  it("tool: refuses a malformed request before anything goes out (VALIDATION)", async () => {
    const { peer, client: c } = client(json(TOOL_RESULT));
    const bad = { ...TOOL_REQUEST, origin: { ...TOOL_REQUEST.origin, hops: -1 } };
    const error = await failure(c.tool(bad, { timeoutMs: 1000 }));
    expect(error.code).toBe("VALIDATION");
    expect(error.message).toContain('"origin.hops"');
    expect(peer.sent).toHaveLength(0);
  });
});

describe("DESIGN §4 peer client: answers", () => {
  it("tool: a success passes through untouched, action fields included", async () => {
    const { client: c } = client(json(TOOL_RESULT));
    await expect(tool(c)).resolves.toEqual(TOOL_RESULT);
  });

  it("tool: an ok:false result at HTTP 200 is a value, not an exception", async () => {
    const refusal = { ok: false, code: "REMOTE_RELAY_NOT_FOUND", error: "No session ses_x on build-box." };
    const { client: c } = client(json(refusal));
    await expect(tool(c)).resolves.toEqual(refusal);
  });

  it("tool: keep-alive spaces before the JSON are read through (DESIGN §4 long waits)", async () => {
    const { client: c } = client(json(TOOL_RESULT, 200, " ".repeat(40)));
    await expect(tool(c)).resolves.toEqual(TOOL_RESULT);
  });

  it("tool: a body streamed as many chunks, a UTF-8 character split across two, is read whole", async () => {
    const body = bytes(JSON.stringify(TOOL_RESULT));
    const split = body.indexOf(0xc3) + 1; // inside "ü"
    const spaces = Array.from({ length: 50 }, () => bytes(" "));
    const { client: c } = client(chunks([...spaces, body.slice(0, split), body.slice(split)]));
    await expect(tool(c)).resolves.toEqual(TOOL_RESULT);
  });

  it.each([
    ["tool", text("<html>Bad gateway</html>"), "is not JSON"],
    ["tool", text("   "), "an empty body"],
    ["tool", json({ ok: true, relay: "build-box" }), 'not a relay_tool result: at "summary"'],
    ["tool", json({ sessions: [] }), 'at "ok"'],
    ["info", json({ name: "build-box", version: "0.1.0" }), 'not a peer info object: at "features"'],
    ["info", text("not json"), "is not JSON"],
  ] as const)("%s: a 200 that is not the protocol's → VALIDATION (%#)", async (call, answer, message) => {
    const { client: c } = client(answer);
    const error = await failure(call === "tool" ? tool(c) : c.info());
    expect(error.code).toBe("VALIDATION");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(HOST);
    expect(error.message).toContain(message);
  });
});

describe("DESIGN §4 peer client: failures", () => {
  const authEnvelope = { ok: false, code: "REMOTE_RELAY_AUTH", error: "Missing or invalid token." };

  it.each([401, 403])("HTTP %i → REMOTE_RELAY_AUTH naming the host", async (status) => {
    const { client: c } = client(json(authEnvelope, status));
    for (const call of [() => c.info(), () => tool(c)]) {
      const error = await failure(call());
      expect(error.code).toBe("REMOTE_RELAY_AUTH");
      expect(error.message).toContain(`${HOST} refused this relay's token`);
      expect(error.retryable).toBe(false);
      expect(error.context).toEqual({ host: HOST, status });
    }
  });

  it("HTTP 404 → REMOTE_RELAY_UNSUPPORTED: that relay has no peer surface for the route", async () => {
    const notFound = { ok: false, code: "REMOTE_RELAY_NOT_FOUND", error: "Unknown route." };
    const { client: c } = client(json(notFound, 404));
    const error = await failure(tool(c));
    expect(error.code).toBe("REMOTE_RELAY_UNSUPPORTED");
    expect(error.message).toContain(`The relay at ${HOST} has no peer surface for POST /v1/peer/tool`);
    expect(error.message).toContain("older OAR");
    expect((await failure(c.info())).code).toBe("REMOTE_RELAY_UNSUPPORTED");
  });

  it.each([400, 413, 422])("HTTP %i with an error envelope → RelayError.fromWire", async (status) => {
    const envelope = {
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: "origin.hops: must be at most 16.",
      requestId: "req_7",
    };
    const { client: c } = client(json(envelope, status));
    const error = await failure(tool(c));
    expect(error.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(error.message).toBe(envelope.error);
    expect(error.context).toMatchObject({ requestId: "req_7", host: HOST, status });
    expect(error.isLocal()).toBe(false);
  });

  it("a 4xx envelope keeps its R-ERR-03 extras (remoteCode, suggestions) in the context", async () => {
    const envelope = {
      ok: false,
      code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      error: "The Claude API cap is reached.",
      remoteCode: "CLAUDE_API_CAP_REACHED",
    };
    const { client: c } = client(json(envelope, 429));
    const error = await failure(tool(c));
    expect(error.code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
    expect(error.context.remoteCode).toBe("CLAUDE_API_CAP_REACHED");
  });

  it.each([text("Bad Request", 400), json({ ok: false, code: "NOT_A_CODE", error: "x" }, 400)])(
    "a 4xx without an error envelope → VALIDATION (%#)",
    async (answer) => {
      const { client: c } = client(answer);
      const error = await failure(tool(c));
      expect(error.code).toBe("VALIDATION");
      expect(error.message).toContain(`${HOST} refused POST /v1/peer/tool with HTTP 400`);
    },
  );

  it.each([
    [json({ ok: false, code: "REMOTE_RELAY_INTERNAL", error: "Boom.", requestId: "req_9" }, 500), "req_9"],
    [text("", 502), "HTTP 502"],
    [text("Service Unavailable", 503), "HTTP 503"],
  ])("a 5xx → NETWORK, retryable, naming the host (%#)", async (answer, detail) => {
    const { client: c } = client(answer);
    const error = await failure(tool(c));
    expect(error.code).toBe("NETWORK");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(`The relay at ${HOST} failed on POST /v1/peer/tool`);
    expect(error.message).toContain(detail);
  });

  it("connection refused (fetch throws a TypeError) → NETWORK, retryable, naming host and cause", async () => {
    const { client: c } = client(refused());
    const error = await failure(tool(c));
    expect(error.code).toBe("NETWORK");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(`Could not reach the relay at ${HOST}`);
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("a redirect is not followed (the bearer stays home) → VALIDATION naming where it points", async () => {
    const redirect = () =>
      new Response(null, { status: 301, headers: { location: "https://elsewhere.example.com/" } });
    const { peer, client: c } = client(redirect);
    const error = await failure(tool(c));
    expect(error.code).toBe("VALIDATION");
    expect(error.message).toContain("redirect (HTTP 301 to https://elsewhere.example.com/)");
    expect(peer.sent).toHaveLength(1);
  });
});

describe("DESIGN §7 a peer's response is read up to 8 MB, no further", () => {
  const CHUNK = 65_536;
  const overCap = (route: string) =>
    `The relay at ${HOST} sent a response over 8 MB to ${route}; this relay stopped reading it.`;

  it("the cap is 8 MB", () => {
    expect(MAX_RESPONSE_BYTES).toBe(8 * 1024 * 1024);
  });

  it("tool: a body without end → REMOTE_RELAY_UNREACHABLE saying why; the client read 8 MB and one chunk, then cancelled", async () => {
    const peer = endlessStream("a", { prefix: '{"ok":true,"relay":"build-box","summary":"' });
    const { client: c } = client(peer.answer);
    const error = await failure(tool(c));
    expect(error.code).toBe("REMOTE_RELAY_UNREACHABLE");
    expect(error.message).toBe(`${overCap("POST /v1/peer/tool")} The call may have run there.`);
    expect(error.retryable).toBe(false);
    expect(error.context).toEqual({ host: HOST, status: 200 });
    expect(peer.sentBytes()).toBeGreaterThan(MAX_RESPONSE_BYTES);
    expect(peer.sentBytes()).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + CHUNK);
    expect(peer.cancelled()).toBe(true);
  });

  it("info: the same cap, and no retry", async () => {
    const peer = endlessStream("a", { prefix: '{"name":"' });
    const { peer: sent, client: c } = client(peer.answer);
    const error = await failure(c.info());
    expect(error.code).toBe("REMOTE_RELAY_UNREACHABLE");
    expect(error.message).toBe(overCap("GET /v1/peer/info"));
    expect(sent.sent).toHaveLength(1);
    expect(peer.sentBytes()).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + CHUNK);
    expect(peer.cancelled()).toBe(true);
  });

  it("keep-alive spaces count toward it: spaces without end are refused at the cap, not at the deadline", async () => {
    const peer = endlessStream(" ");
    const { client: c } = client(peer.answer);
    const error = await failure(tool(c, { timeoutMs: 3_600_000 }));
    expect(error.code).toBe("REMOTE_RELAY_UNREACHABLE");
    expect(peer.sentBytes()).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + CHUNK);
    expect(peer.cancelled()).toBe(true);
  });

  it("an error answer without end is capped the same (not a retried 5xx)", async () => {
    for (const status of [400, 500]) {
      const peer = endlessStream("a", {
        status,
        prefix: '{"ok":false,"code":"REMOTE_RELAY_INTERNAL","error":"',
      });
      const { peer: sent, client: c } = client(peer.answer);
      const error = await failure(c.info());
      expect(error.code, String(status)).toBe("REMOTE_RELAY_UNREACHABLE");
      expect(error.context, String(status)).toEqual({ host: HOST, status });
      expect(sent.sent, String(status)).toHaveLength(1);
      expect(peer.sentBytes(), String(status)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + CHUNK);
    }
  });

  it("a Content-Length over the cap is refused before a byte is read", async () => {
    const peer = endlessStream("a", { contentLength: MAX_RESPONSE_BYTES + 1 });
    const { client: c } = client(peer.answer);
    const error = await failure(tool(c));
    expect(error.code).toBe("REMOTE_RELAY_UNREACHABLE");
    expect(peer.sentBytes()).toBe(0);
    expect(peer.cancelled()).toBe(true);
  });

  it("a body of exactly 8 MB is read whole, keep-alive spaces included", async () => {
    const spaces = " ".repeat(1000);
    const head = JSON.stringify({ ...TOOL_RESULT, pad: "" });
    const pad = "x".repeat(MAX_RESPONSE_BYTES - spaces.length - bytes(head).byteLength);
    const body = `${spaces}${JSON.stringify({ ...TOOL_RESULT, pad })}`;
    expect(bytes(body).byteLength).toBe(MAX_RESPONSE_BYTES);
    const { client: c } = client(text(body));
    await expect(tool(c)).resolves.toEqual({ ...TOOL_RESULT, pad });
  });
});

describe("DESIGN §4 peer client: retries", () => {
  it("info retries once, at once, after a network failure", async () => {
    const { peer, client: c } = client(refused(), json(INFO));
    await expect(c.info()).resolves.toEqual(INFO);
    expect(peer.sent).toHaveLength(2);
  });

  it("info retries once after a 5xx", async () => {
    const { peer, client: c } = client(text("", 503), json(INFO));
    await expect(c.info()).resolves.toEqual(INFO);
    expect(peer.sent).toHaveLength(2);
  });

  it("info gives up after the second failure", async () => {
    const { peer, client: c } = client(refused());
    expect((await failure(c.info())).code).toBe("NETWORK");
    expect(peer.sent).toHaveLength(2);
  });

  it.each([
    ["401", json({ ok: false, code: "REMOTE_RELAY_AUTH", error: "No." }, 401)],
    ["404", text("", 404)],
    ["a bad 200", text("nope")],
  ])("info does not retry after %s", async (_label, answer) => {
    const { peer, client: c } = client(answer, json(INFO));
    await failure(c.info());
    expect(peer.sent).toHaveLength(1);
  });

  it.each([
    ["a network failure", refused()],
    ["a 5xx", text("", 502)],
  ])("tool never retries, even after %s (the call may have had effects)", async (_label, answer) => {
    const { peer, client: c } = client(answer, json(TOOL_RESULT));
    expect((await failure(tool(c))).code).toBe("NETWORK");
    expect(peer.sent).toHaveLength(1);
  });
});

describe("DESIGN §4 peer client: the deadline and the caller's signal", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs the call and reports whether it has settled, under fake timers. */
  function track(call: Promise<unknown>) {
    let settled = false;
    const result = failure(call.finally(() => (settled = true)));
    return { result, settled: () => settled };
  }

  it.each([
    ["no response until aborted", hangUntilAborted()],
    ["a fetch that ignores the signal", hangForever()],
    ["keep-alive spaces and then nothing", endlessBody()],
  ])("tool: TIMEOUT, retryable, exactly when timeoutMs elapses — %s", async (_label, answer) => {
    const { client: c } = client(answer);
    const call = track(tool(c, { timeoutMs: 30_000 }));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call.result;
    expect(error.code).toBe("TIMEOUT");
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`The relay at ${HOST} did not answer POST /v1/peer/tool within 30000 ms.`);
  });

  it("info: TIMEOUT after 5000 ms by default, not retried", async () => {
    const { peer, client: c } = client(hangUntilAborted());
    const call = track(c.info());
    await vi.advanceTimersByTimeAsync(4999);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await call.result).code).toBe("TIMEOUT");
    expect(peer.sent).toHaveLength(1);
  });

  it("info: infoTimeoutMs bounds the call, its retry included", async () => {
    const peer = fakePeer(refused(), hangUntilAborted());
    const c = createPeerClient({ url: BASE, token: TOKEN, fetch: peer.fetch, infoTimeoutMs: 250 });
    const call = track(c.info());
    await vi.advanceTimersByTimeAsync(250);
    expect((await call.result).code).toBe("TIMEOUT");
    expect(peer.sent).toHaveLength(2);
  });

  it("a timeoutMs of 0 has already elapsed: TIMEOUT, nothing sent", async () => {
    const { peer, client: c } = client(json(TOOL_RESULT));
    expect((await failure(tool(c, { timeoutMs: 0 }))).code).toBe("TIMEOUT");
    expect(peer.sent).toHaveLength(0);
  });

  it("a caller's signal aborted before the call: NETWORK, not retryable, nothing sent", async () => {
    const { peer, client: c } = client(json(INFO), json(TOOL_RESULT));
    const signal = AbortSignal.abort();
    for (const call of [() => c.info({ signal }), () => tool(c, { signal })]) {
      const error = await failure(call());
      expect(error.code).toBe("NETWORK");
      expect(error.retryable).toBe(false);
      expect(error.message).toContain("cancelled by the caller");
    }
    expect(peer.sent).toHaveLength(0);
  });

  it.each([
    ["while waiting for the response", hangUntilAborted()],
    ["while reading the body", endlessBody()],
  ])("the caller aborting %s: NETWORK cancelled, not retried", async (_label, answer) => {
    const { peer, client: c } = client(answer);
    for (const call of [
      (signal: AbortSignal) => c.info({ signal }),
      (signal: AbortSignal) => tool(c, { signal }),
    ]) {
      const controller = new AbortController();
      const pending = track(call(controller.signal));
      await vi.advanceTimersByTimeAsync(10);
      expect(pending.settled()).toBe(false);
      controller.abort();
      const error = await pending.result;
      expect(error.code).toBe("NETWORK");
      expect(error.retryable).toBe(false);
      expect(error.message).toContain(`The call to the relay at ${HOST}`);
      expect(error.message).toContain("was cancelled by the caller");
    }
    expect(peer.sent).toHaveLength(2);
  });

  it("a call that ends in time leaves no timer behind", async () => {
    const { client: c } = client(json(TOOL_RESULT));
    await tool(c, { timeoutMs: 30_000 });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("§7 the bearer never appears in an error", () => {
  const echo = `you sent Bearer ${TOKEN}`;

  it.each([
    ["401", json({ ok: false, code: "REMOTE_RELAY_AUTH", error: echo }, 401)],
    ["404", text(echo, 404)],
    ["400 envelope echoing it", json({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT", error: echo }, 400)],
    ["400 text", text(echo, 400)],
    ["500 envelope echoing it", json({ ok: false, code: "REMOTE_RELAY_INTERNAL", error: echo }, 500)],
    ["non-JSON 200 echoing it", text(`${TOKEN} is not JSON`)],
    ["schema failure", json({ ok: true, relay: TOKEN })],
    ["connection refused", refused()],
  ])("%s", async (_label, answer) => {
    const { client: c } = client(answer);
    for (const call of [() => c.info(), () => tool(c)]) {
      const error = await failure(call());
      expect(error.message).not.toContain(TOKEN);
      expect(JSON.stringify(error.context)).not.toContain(TOKEN);
    }
  });

  it("nor in the errors of a bad address or token", () => {
    const thrown = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error as RelayError;
      }
      throw new Error("expected a throw");
    };
    for (const url of [`not a url ${TOKEN}`, "ftp://build-box.example.com", `https://u:${TOKEN}@build-box`]) {
      const error = thrown(() => createPeerClient({ url, token: TOKEN }));
      expect(error.code).toBe("VALIDATION");
      expect(error.message).not.toContain(TOKEN);
    }
    for (const token of ["", `${TOKEN}\r\nX-Evil: 1`, `${TOKEN} x`]) {
      const error = thrown(() => createPeerClient({ url: BASE, token }));
      expect(error.code).toBe("VALIDATION");
      expect(error.message).not.toContain(TOKEN);
    }
  });
});
