import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { silentLogger } from "@oar/core";
import { FakeClock } from "@oar/core/testing";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepAliveResponse, PLAIN_BODY_WITHIN_MS } from "../src/http/keep-alive-json";
import { limitBody } from "../src/http/node-request";
import { readJson } from "../src/http/validate";
import { OWNER_TOKEN } from "./harness";
import { type ServedRelay, serveRelay } from "./support/served-relay";

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A POST over a real socket; `chunked` sends the body without a Content-Length. */
function post(
  base: string,
  path: string,
  options: { readonly token: string; readonly body: string; readonly chunked?: boolean },
): Promise<{ status: number; text: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          Authorization: `Bearer ${options.token}`,
          "Content-Type": "application/json",
          ...(options.chunked
            ? { "Transfer-Encoding": "chunked" }
            : { "Content-Length": Buffer.byteLength(options.body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    if (options.chunked) {
      // Two chunks, so the body really comes in pieces.
      const half = Math.floor(options.body.length / 2);
      req.write(options.body.slice(0, half));
      req.end(options.body.slice(half));
    } else {
      req.end(options.body);
    }
  });
}

describe("/v1/tool's body over a real socket (issue 29: read from the Node request)", {
  timeout: 30_000,
}, () => {
  let served: ServedRelay;
  let token: string;
  beforeAll(async () => {
    served = await serveRelay({ dataDir: "memory://", allowedRoots: [] });
    const { id } = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {});
    token = await served.agentToken(id);
  });
  afterAll(() => served.close());

  it("a call by Content-Length and a chunked call answer alike", async () => {
    const body = JSON.stringify({ action: "relay_info", relay: "this" });
    for (const chunked of [false, true]) {
      const answer = await post(served.base, "/v1/tool", { token, body, chunked });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({ ok: true, relay: "desk" });
    }
  });

  it("a body over 4 MiB is refused naming the limit, by its Content-Length or while it streams", async () => {
    const body = JSON.stringify({ action: "relay_info", relay: "this", pad: "x".repeat(MAX_BODY_BYTES) });
    for (const chunked of [false, true]) {
      const answer = await post(served.base, "/v1/tool", { token, body, chunked });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        code: "REMOTE_RELAY_INVALID_INPUT",
        error: `The request body is over ${MAX_BODY_BYTES} bytes.`,
      });
    }
  });

  it("a body that is not JSON is refused with 400, whichever way it came", async () => {
    for (const chunked of [false, true]) {
      const answer = await post(served.base, "/v1/tool", { token, body: "{not json", chunked });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: "The request body is not valid JSON." });
    }
  });

  it("the owner surface reads its bodies the same way", async () => {
    const answer = await post(served.base, "/v1/owner/sessions", {
      token: OWNER_TOKEN,
      body: JSON.stringify({ title: "by socket" }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ title: "by socket" });
  });
});

describe("a held call whose client goes away, over a real socket", { timeout: 30_000 }, () => {
  /** A route holding its call the way /v1/tool does, until its signal aborts. */
  async function servedHeldCall() {
    const clock = new FakeClock();
    let signal: AbortSignal | undefined;
    let told: () => void = () => {};
    const aborted = new Promise<void>((resolve) => (told = resolve));
    const app = new Hono();
    app.use(requestId({ generator: () => "req_held" }));
    app.use(limitBody(MAX_BODY_BYTES, (c) => c.text("too big", 400)));
    app.post("/tool", async (c) => {
      await readJson(c);
      return keepAliveResponse(c, {
        run: (s) => {
          signal = s;
          s.addEventListener("abort", () => told());
          return new Promise(() => {});
        },
        clock,
        intervalMs: 25_000,
        logger: silentLogger,
        log: {},
      });
    });
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    return { clock, server, port, aborted, signal: () => signal };
  }

  for (const when of ["before its body starts", "once its body streams"] as const) {
    it(`the work behind it is told when the client leaves ${when}`, async () => {
      const held = await servedHeldCall();
      const req = httpRequest({
        host: "127.0.0.1",
        port: held.port,
        path: "/tool",
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": 2 },
      });
      req.on("error", () => {});
      const responded = new Promise<void>((resolve) => req.once("response", () => resolve()));
      req.end("{}");
      while (held.signal() === undefined) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (when === "once its body streams") {
        await held.clock.advanceAsync(PLAIN_BODY_WITHIN_MS);
        await responded;
      }
      expect(held.signal()?.aborted).toBe(false);
      req.destroy();
      await held.aborted;
      expect(held.signal()?.aborted).toBe(true);
      held.server.close();
    });
  }
});
