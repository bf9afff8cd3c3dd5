import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RelayError } from "@oar/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPeerClient, MAX_RESPONSE_BYTES } from "../src/index";
import { INFO, TOKEN, TOOL_REQUEST } from "./fake-peer";

// The smoke tests over a real loopback socket (STYLE §12): the real global fetch, a real server
// that streams keep-alive spaces before the JSON as /v1/tool does (DESIGN §4), and one that
// streams without end as a hostile peer may (DESIGN §7).

function readRequestBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the endless routes wrote, and whether the client has closed the connection. */
const endless = { written: 0, closed: false };

/** A hostile peer: JSON that never ends, written as fast as the socket takes it. */
async function streamForever(response: ServerResponse, prefix: string): Promise<void> {
  endless.written = 0;
  endless.closed = false;
  response.on("close", () => {
    endless.closed = true;
  });
  response.writeHead(200, { "content-type": "application/json" });
  response.write(prefix);
  const chunk = Buffer.alloc(65_536, "a");
  while (!endless.closed) {
    endless.written += chunk.byteLength;
    if (!response.write(chunk)) {
      await new Promise((resolve) => {
        response.once("drain", resolve);
        response.once("close", resolve);
      });
    }
  }
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.url === "/endless/v1/peer/tool" || request.url === "/endless/v1/peer/info") {
    await streamForever(response, request.url.endsWith("tool") ? '{"ok":true,"summary":"' : '{"name":"');
    return;
  }
  if (request.headers.authorization !== `Bearer ${TOKEN}`) {
    sendJson(response, 401, { ok: false, code: "REMOTE_RELAY_AUTH", error: "Missing or invalid token." });
    return;
  }
  if (request.method === "GET" && request.url === "/relay/v1/peer/info") {
    sendJson(response, 200, INFO);
    return;
  }
  if (request.method === "POST" && request.url === "/relay/v1/peer/tool") {
    const received = JSON.parse(await readRequestBody(request));
    response.writeHead(200, { "content-type": "application/json" });
    for (let i = 0; i < 3; i++) {
      response.write(" ");
      await pause(15);
    }
    response.end(
      JSON.stringify({
        ok: true,
        relay: INFO.name,
        summary: "echo",
        echoed: received.call,
        contentType: request.headers["content-type"],
      }),
    );
    return;
  }
  sendJson(response, 404, { ok: false, code: "REMOTE_RELAY_NOT_FOUND", error: "Unknown route." });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  port = await listen(server);
});

afterAll(async () => {
  await close(server);
});

describe("DESIGN §4 peer client over a loopback socket", () => {
  it("info and tool end to end, through a path prefix, keep-alive spaces included", async () => {
    const client = createPeerClient({ url: `http://127.0.0.1:${port}/relay`, token: TOKEN });
    await expect(client.info()).resolves.toEqual(INFO);
    await expect(client.tool(TOOL_REQUEST, { timeoutMs: 10_000 })).resolves.toEqual({
      ok: true,
      relay: INFO.name,
      summary: "echo",
      echoed: TOOL_REQUEST.call,
      contentType: "application/json",
    });
  });

  it("a refused token → REMOTE_RELAY_AUTH; a relay without the route → REMOTE_RELAY_UNSUPPORTED", async () => {
    const wrongToken = createPeerClient({ url: `http://127.0.0.1:${port}/relay/`, token: "wrong" });
    await expect(wrongToken.info()).rejects.toMatchObject({ code: "REMOTE_RELAY_AUTH" });
    const noPrefix = createPeerClient({ url: `http://127.0.0.1:${port}`, token: TOKEN });
    await expect(noPrefix.tool(TOOL_REQUEST, { timeoutMs: 10_000 })).rejects.toMatchObject({
      code: "REMOTE_RELAY_UNSUPPORTED",
    });
  });

  it("a closed port → NETWORK, retryable, naming the host and ECONNREFUSED", async () => {
    const closed = createServer();
    const closedPort = await listen(closed);
    await close(closed);
    const client = createPeerClient({ url: `http://127.0.0.1:${closedPort}`, token: TOKEN });
    const error = await client.info().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: "NETWORK", retryable: true });
    expect((error as RelayError).message).toContain(`127.0.0.1:${closedPort}`);
    expect((error as RelayError).message).toContain("ECONNREFUSED");
  });

  it.each([
    ["tool", "POST /v1/peer/tool"],
    ["info", "GET /v1/peer/info"],
  ] as const)(
    "DESIGN §7: %s from a peer that streams without end stops at 8 MB, and the connection is closed",
    async (call, route) => {
      let read = 0;
      // The global fetch, with a count of the body bytes the client took from the socket.
      const counting: typeof globalThis.fetch = async (input, init) => {
        const response = await globalThis.fetch(input, init);
        const counter = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            read += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        return new Response(response.body?.pipeThrough(counter) ?? null, {
          status: response.status,
          headers: response.headers,
        });
      };
      const client = createPeerClient({
        url: `http://127.0.0.1:${port}/endless`,
        token: TOKEN,
        fetch: counting,
      });
      const error = await (call === "tool"
        ? client.tool(TOOL_REQUEST, { timeoutMs: 10_000 })
        : client.info()
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({ code: "REMOTE_RELAY_UNREACHABLE" });
      expect((error as RelayError).message).toContain(`sent a response over 8 MB to ${route}`);
      expect(read).toBeGreaterThan(MAX_RESPONSE_BYTES);
      expect(read).toBeLessThanOrEqual(MAX_RESPONSE_BYTES + 1024 * 1024);
      // The peer sees the connection closed and stops; what it wrote past what the client read sat
      // in the two sockets' kernel buffers (tens of MB at most), not in this process.
      for (let waited = 0; !endless.closed && waited < 5_000; waited += 10) {
        await pause(10);
      }
      expect(endless.closed).toBe(true);
      expect(endless.written).toBeLessThan(MAX_RESPONSE_BYTES + 48 * 1024 * 1024);
    },
  );
});
