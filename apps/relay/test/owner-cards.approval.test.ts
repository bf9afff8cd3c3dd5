import type { OwnerCard, OwnerSessionDetail } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { createTestRelay, eventually } from "./harness";

describe("approval cards through /v1/owner/cards (DESIGN §4, GAP-04)", { timeout: 30_000 }, () => {
  it("R-UI-01(a): a pending first_create_session card is listed, answered allow, and the call runs", async () => {
    const t = await createTestRelay({ overrides: { approvalCards: true } });
    // An external caller always counts as in a turn (GAP-04), so the card can be shown.
    const caller = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
      provider: "external",
    });
    const token = await t.agentToken(caller.id);
    const pendingCall = t
      .tool(token, {
        action: "create_session",
        relay: "this",
        provider: "script",
        text: "hi",
        wait_seconds: 0,
      })
      .then(async (response) => JSON.parse((await response.text()).trim()) as Record<string, unknown>);
    const card = await eventually(async () => {
      const { cards } = await t.ownerJson<{ cards: OwnerCard[] }>("GET", "/v1/owner/cards?status=pending");
      return cards[0];
    });
    expect(card).toMatchObject({
      kind: "approval",
      reason: "first_create_session",
      sessionId: caller.id,
      action: "create_session",
      targetRelay: "desk",
      status: "pending",
      options: ["allow", "deny"],
    });
    const answered = await t.ownerJson<OwnerCard>("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
    expect(answered).toMatchObject({ id: card.id, status: "allowed" });
    expect(await pendingCall).toMatchObject({ ok: true });
    const { cards: allowed } = await t.ownerJson<{ cards: OwnerCard[] }>(
      "GET",
      "/v1/owner/cards?status=allowed",
    );
    expect(allowed.map((c) => c.id)).toEqual([card.id]);
    const again = await t.owner("POST", `/v1/owner/cards/${card.id}`, { choice: "deny" });
    expect(again.status).toBe(400);
  });
});
