import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OwnerSessionDetail } from "@oar/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestRelay, type TestRelay } from "./harness";

let t: TestRelay;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  // Approval cards have their own tests (owner-cards.approval.test.ts); here a create_session just runs.
  t = await createTestRelay({ keepOpen: true, overrides: { keepAliveMs: 25, approvalCards: false } });
  const server = serve({ fetch: t.relay.app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.relay.close();
  };
});
afterAll(() => close());

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function sessionToken(): Promise<{ id: string; token: string }> {
  const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
  return { id, token: await t.agentToken(id) };
}

describe("POST /mcp with the MCP SDK's client over Streamable HTTP (DESIGN §4)", { timeout: 30_000 }, () => {
  it("R-NAME-01/07: lists relay_tool with the action schema, and never remote_relay", async () => {
    const client = await connect((await sessionToken()).token);
    expect(client.getServerVersion()?.name).toBe("relay");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["relay_tool"]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["action"] });
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toContain("wait_seconds");
    await client.close();
  });

  it("calls relay_tool: structuredContent is the result, one text block holds the same JSON", async () => {
    const client = await connect((await sessionToken()).token);
    const result = await client.callTool({ name: "relay_tool", arguments: { action: "list_relays" } });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ ok: true, relay: "desk" });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    await client.close();
  });

  it("R-NAME-05/07: calls the unlisted legacy name remote_relay the same way", async () => {
    const client = await connect((await sessionToken()).token);
    const result = await client.callTool({
      name: "remote_relay",
      arguments: { action: "relay_info", relay: "this" },
    });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ ok: true, relay: "desk" });
    await client.close();
  });

  it("isError is true exactly when ok is false; any other tool name is an MCP error", async () => {
    const { id, token } = await sessionToken();
    const client = await connect(token);
    const refused = await client.callTool({
      name: "relay_tool",
      arguments: { action: "archive", relay: "this", session: id },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ ok: false, code: "REMOTE_RELAY_SELF" });
    await expect(client.callTool({ name: "other_tool", arguments: {} })).rejects.toThrow(
      /Unknown tool "other_tool"/,
    );
    await client.close();
  });

  it("GAP-02: lists no tool while the owner has agent sessions off", async () => {
    const client = await connect((await sessionToken()).token);
    await t.ownerJson("PATCH", "/v1/owner/settings", { agentSessions: { enabled: false } });
    try {
      expect((await client.listTools()).tools).toEqual([]);
      const result = await client.callTool({
        name: "relay_tool",
        arguments: { action: "relay_info", relay: "this" },
      });
      expect(result.structuredContent).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    } finally {
      await t.ownerJson("PATCH", "/v1/owner/settings", { agentSessions: { enabled: true } });
      await client.close();
    }
  });

  it("keeps a long call's SSE stream alive with keep-alive comments (DESIGN §4)", async () => {
    const { token } = await sessionToken();
    const headers = {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const response = await fetch(`${base}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "relay_tool",
          arguments: {
            action: "create_session",
            relay: "this",
            text: "!sleep 300\n!reply slow",
            wait_seconds: 20,
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text.indexOf(": keepalive")).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(": keepalive")).toBeLessThan(text.indexOf("data:"));
    expect(text).toContain("slow");
  });

  it("answers GET and DELETE with 405: the server is stateless", async () => {
    const { token } = await sessionToken();
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${base}/mcp`, { method, headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(405);
    }
  });
});
