import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RelayError } from "@oar/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPeerClient } from "../src/index";
import { INFO, TOKEN, TOOL_REQUEST } from "./fake-peer";

// The one smoke test over a real loopback socket (STYLE §12): the real global fetch, a real
// server that streams keep-alive spaces before the JSON as /v1/tool does (DESIGN §4).

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

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
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
});
