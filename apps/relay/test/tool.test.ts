import type { OwnerSessionDetail } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { createTestRelay } from "./harness";

async function readChunks(response: Response): Promise<{ chunks: string[]; text: string }> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) {
      break;
    }
    chunks.push(decoder.decode(next.value));
  }
  return { chunks, text: chunks.join("") };
}

describe("POST /v1/tool (DESIGN §4 agent surface)", { timeout: 30_000 }, () => {
  it("answers every well-formed call with HTTP 200, ok:false results included (R-CALL-04)", async () => {
    const t = await createTestRelay();
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const token = await t.agentToken(id);

    const relays = await t.tool(token, { action: "list_relays" });
    expect(relays.status).toBe(200);
    expect(relays.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await relays.json()).toMatchObject({ ok: true, relay: "desk" });

    const unknown = await t.tool(token, { action: "teleport" });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });

    const self = await t.tool(token, { action: "stop", relay: "this", session: id });
    expect(self.status).toBe(200);
    expect(await self.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_SELF" });
  });

  it("refuses a body that is not JSON with 400 and the error envelope", async () => {
    const t = await createTestRelay();
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const token = await t.agentToken(id);
    const response = await t.relay.app.request("/v1/tool", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: "action=list_relays",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: "The request body is not valid JSON.",
    });
  });

  it("keeps a long wait alive with a space at every interval before the JSON (DESIGN §4)", async () => {
    // The first create_session's approval card has its own test (owner-cards.approval.test.ts).
    const t = await createTestRelay({ overrides: { keepAliveMs: 25, approvalCards: false } });
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const token = await t.agentToken(id);
    const response = await t.tool(token, {
      action: "create_session",
      relay: "this",
      text: "!sleep 400\n!reply late but here",
      wait_seconds: 20,
    });
    expect(response.status).toBe(200);
    const { chunks, text } = await readChunks(response);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.slice(0, 3)).toEqual([" ", " ", " "]);
    expect(text).toMatch(/^ {3,}\{/);
    expect(JSON.parse(text)).toMatchObject({ ok: true, status: "done", reply: expect.objectContaining({}) });
    expect(text).toContain("late but here");
  });

  it("a result that is ready at once goes out without padding", async () => {
    const t = await createTestRelay({ overrides: { keepAliveMs: 25 } });
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const token = await t.agentToken(id);
    const { text } = await readChunks(await t.tool(token, { action: "relay_info" }));
    expect(text.startsWith("{")).toBe(true);
  });
});
