import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import type { TestRelay } from "../harness";
import { call, createNetwork, externalCaller, ownerSession, ownerWrites, pair } from "./network";

const AGENT_SESSIONS = "Agents may start and use sessions on this relay";

/** An MCP client of the relay's /mcp as the session holding `token`, through the app in process. */
async function mcpClient(t: TestRelay, token: string): Promise<Client> {
  const client = new Client({ name: "gap-02-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://desk.test/mcp"), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (url, init) => t.relay.app.request(String(url), init),
  });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

describe("relay_tool is offered while agent sessions are on OR a relay is paired (GAP-02, R-ENA-01)", {
  timeout: 60_000,
}, () => {
  it("GAP-02: with agent sessions off and one peer, tools/list still lists relay_tool; this relay refuses with the setting's name, build-box works", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await desk.ownerJson("PATCH", "/v1/owner/settings", { agentSessions: { enabled: false } });
    const caller = await externalCaller(desk);
    const client = await mcpClient(desk, caller.token);
    expect((await client.listTools()).tools).toEqual([]);

    await pair(desk, box);
    await ownerWrites(desk, caller.id, "Use build-box.");
    const deploy = await ownerSession(box, "Deploy");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["relay_tool"]);

    const here = await client.callTool({
      name: "relay_tool",
      arguments: { action: "list_sessions", relay: "this" },
    });
    expect(here.isError).toBe(true);
    expect(here.structuredContent).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(JSON.stringify(here.structuredContent)).toContain(AGENT_SESSIONS);

    const there = await client.callTool({
      name: "relay_tool",
      arguments: {
        action: "send",
        relay: "build-box",
        session: deploy,
        text: "!reply from MCP",
        wait_seconds: 30,
      },
    });
    expect(there.isError).toBe(false);
    expect(there.structuredContent).toMatchObject({
      ok: true,
      relay: "build-box",
      status: "done",
      reply: { text: "from MCP" },
    });

    // R-LREL-02: this relay is not listed while its agent sessions are off; the peer is.
    const listed = await call(desk, caller.token, { action: "list_relays" });
    expect(listed).toMatchObject({ ok: true, relays: [{ name: "build-box", unlocked: true }] });
    expect((listed.relays as unknown[]).length).toBe(1);

    // Unpaired again: no tool.
    await desk.ownerJson("DELETE", "/v1/owner/peers/build-box");
    expect((await client.listTools()).tools).toEqual([]);
  });
});
