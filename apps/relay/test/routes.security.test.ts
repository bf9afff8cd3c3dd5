import { createHash } from "node:crypto";
import type { OwnerSessionDetail } from "@oar/engine";
import { AuthErrorBodySchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestRelay, OWNER_TOKEN } from "./harness";

async function authRefusal(response: Response) {
  expect(response.status).toBe(401);
  return AuthErrorBodySchema.parse(await response.json());
}

const MCP_INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
};

describe("bearer tokens on every surface (DESIGN §4, §7)", { timeout: 30_000 }, () => {
  it("a missing or wrong token is 401 REMOTE_RELAY_AUTH on the owner and agent surfaces", async () => {
    const t = await createTestRelay();
    const { app } = t.relay;
    for (const path of ["/v1/owner/sessions", "/v1/owner/settings", "/v1/owner/inbox"]) {
      expect((await authRefusal(await app.request(path))).error).toBe(
        "This route needs Authorization: Bearer <token>.",
      );
      await authRefusal(await app.request(path, { headers: { Authorization: "Bearer wrong-token" } }));
      await authRefusal(await app.request(path, { headers: { Authorization: OWNER_TOKEN } }));
    }
    for (const path of ["/v1/tool", "/mcp"]) {
      await authRefusal(await app.request(path, { method: "POST", body: "{}" }));
      await authRefusal(
        await app.request(path, { method: "POST", body: "{}", headers: { Authorization: "Bearer nope" } }),
      );
    }
  });

  it("tokens are never interchangeable: an agent token is refused on owner routes and the owner token on agent routes", async () => {
    const t = await createTestRelay();
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const agent = await t.agentToken(id);
    const asAgent = { headers: { Authorization: `Bearer ${agent}` } };
    expect((await authRefusal(await t.relay.app.request("/v1/owner/sessions", asAgent))).error).toBe(
      "The bearer token is not this relay's owner token.",
    );
    const ownerOnTool = await t.tool(OWNER_TOKEN, { action: "list_relays" });
    expect((await authRefusal(ownerOnTool)).error).toBe(
      "The bearer token is not the agent token of a session on this relay.",
    );
    await authRefusal(
      await t.relay.app.request("/mcp", {
        method: "POST",
        headers: {
          Authorization: `Bearer ${OWNER_TOKEN}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(MCP_INIT),
      }),
    );
    expect((await t.tool(agent, { action: "list_relays" })).status).toBe(200);
  });

  it("keeps only the sha256 of an agent token, and a deleted session's token stops working", async () => {
    const t = await createTestRelay();
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const token = await t.agentToken(id);
    const second = await t.agentToken(id);
    expect(second).not.toBe(token);
    const stored = await t.relay.services.storage.stores.tokens.listTokens({ kind: "agent", subject: id });
    expect(stored.map((record) => record.hash)).toEqual(
      [token, second].map((raw) => createHash("sha256").update(raw).digest("hex")),
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    await t.ownerJson("DELETE", `/v1/owner/sessions/${id}`);
    await authRefusal(await t.tool(token, { action: "list_relays" }));
    await authRefusal(await t.tool(second, { action: "list_relays" }));
  });
});
