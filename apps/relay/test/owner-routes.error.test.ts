import type { OwnerSessionDetail } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { createTestRelay } from "./harness";

async function envelope(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("owner surface, refusals (DESIGN §4, GAP-21)", { timeout: 30_000 }, () => {
  it("a body that is not JSON, or that the schema refuses, is 400 REMOTE_RELAY_INVALID_INPUT naming the field", async () => {
    const t = await createTestRelay();
    const notJson = await t.relay.app.request("/v1/owner/sessions", {
      method: "POST",
      headers: { Authorization: "Bearer owner-token-for-tests-0123456789" },
      body: "{not json",
    });
    expect(await envelope(notJson)).toEqual({
      status: 400,
      body: { ok: false, code: "REMOTE_RELAY_INVALID_INPUT", error: "The request body is not valid JSON." },
    });
    const badMode = await envelope(await t.owner("POST", "/v1/owner/sessions", { mode: "fast" }));
    expect(badMode.status).toBe(400);
    expect(badMode.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
    expect(badMode.body.error).toMatch(/^mode: /);
    const unknownField = await envelope(await t.owner("POST", "/v1/owner/sessions", { colour: "red" }));
    expect(unknownField.body.error).toBe("body does not take: colour");
    const emptyPatch = await envelope(await t.owner("PATCH", "/v1/owner/settings", {}));
    expect(emptyPatch).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    const wait = await envelope(
      await t.owner("PATCH", "/v1/owner/settings", { agentSessions: { longestWaitSeconds: 60 } }),
    );
    expect(wait.body.error).toMatch(/^agentSessions\.longestWaitSeconds: /);
    const scope = await envelope(await t.owner("GET", "/v1/owner/sessions?scope=everything"));
    expect(scope).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
  });

  it("unknown ids are 404 REMOTE_RELAY_NOT_FOUND", async () => {
    const t = await createTestRelay();
    for (const [method, path, body] of [
      ["GET", "/v1/owner/sessions/ses_missing", undefined],
      ["PATCH", "/v1/owner/sessions/ses_missing", { title: "x" }],
      ["POST", "/v1/owner/sessions/ses_missing/messages", { text: "hi" }],
      ["POST", "/v1/owner/sessions/ses_missing/token", undefined],
      ["POST", "/v1/owner/sessions/ses_missing/archive", undefined],
      ["POST", "/v1/owner/sessions/ses_missing/kill", undefined],
      ["DELETE", "/v1/owner/sessions/ses_missing", undefined],
      ["PATCH", "/v1/owner/groups/grp_missing", { name: "x" }],
      ["DELETE", "/v1/owner/groups/grp_missing", undefined],
      ["POST", "/v1/owner/cards/q_missing", { answer: "x" }],
    ] as const) {
      const { status, body: answer } = await envelope(await t.owner(method, path, body));
      expect([method, path, status, answer.code]).toEqual([method, path, 404, "REMOTE_RELAY_NOT_FOUND"]);
      expect(answer.ok).toBe(false);
    }
  });

  it("R-MDL-02/03: an unknown model is 422 REMOTE_RELAY_UNKNOWN_MODEL with suggestions and models", async () => {
    const t = await createTestRelay();
    const { status, body } = await envelope(
      await t.owner("POST", "/v1/owner/sessions", { model: "script-3" }),
    );
    expect(status).toBe(422);
    expect(body).toEqual({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error: `Unknown model 'script-3' for Script (built-in) on relay "desk"; did you mean 'script-1'? Valid ids: script-1, script-2. Nothing was created.`,
      suggestions: ["script-1", "script-2"],
      models: ["script-1", "script-2"],
    });
  });

  it("R-CGRP-07: an unknown group is 422 REMOTE_RELAY_UNKNOWN_GROUP listing the groups", async () => {
    const t = await createTestRelay();
    const group = await t.ownerJson<{ id: string }>("POST", "/v1/owner/groups", { name: "Release 2.4" });
    const { status, body } = await envelope(await t.owner("POST", "/v1/owner/sessions", { group: "Relase" }));
    expect(status).toBe(422);
    expect(body).toEqual({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_GROUP",
      error: `Relay "desk" has no session group "Relase". Groups there: Release 2.4 (${group.id}). No session was created.`,
      groups: [{ id: group.id, name: "Release 2.4", memberCount: 0 }],
    });
  });

  it("an approval body on a question card is 400; an unmounted owner route is 404; bad Inbox calls are refused", async () => {
    const t = await createTestRelay();
    await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { text: "!ask Go? | Yes" });
    let cardId: string | undefined;
    for (let i = 0; i < 200 && cardId === undefined; i++) {
      const { cards } = await t.ownerJson<{ cards: { id: string }[] }>("GET", "/v1/owner/cards");
      cardId = cards[0]?.id;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const approval = await envelope(await t.owner("POST", `/v1/owner/cards/${cardId}`, { choice: "allow" }));
    expect(approval).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect(await envelope(await t.owner("GET", "/v1/owner/nowhere"))).toMatchObject({
      status: 404,
      body: { ok: false, code: "REMOTE_RELAY_NOT_FOUND" },
    });
    // The Inbox: an unknown question is 404, a bad body or query 400, nothing changed.
    expect(await envelope(await t.owner("POST", "/v1/owner/inbox/ask_nope", { answer: "x" }))).toMatchObject({
      status: 404,
      body: { ok: false, code: "REMOTE_RELAY_NOT_FOUND" },
    });
    expect(
      await envelope(await t.owner("POST", "/v1/owner/inbox/ask_nope", { dismiss: true, answer: "x" })),
    ).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect(await envelope(await t.owner("GET", "/v1/owner/inbox?closed=maybe"))).toMatchObject({
      status: 400,
      body: { code: "REMOTE_RELAY_INVALID_INPUT" },
    });
  });
});
