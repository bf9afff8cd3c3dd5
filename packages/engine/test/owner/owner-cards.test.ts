import { describe, expect, it } from "vitest";
import { ownerHarness, refusal, settle } from "./harness";

describe("owner API: blocking question cards (DESIGN §4 /cards, R-RSES-02)", () => {
  it("lists the pending card and an answer lets the turn go on", async () => {
    const { owner, turnEnd } = await ownerHarness();
    const created = await owner.createSession({ text: "ask: Merge now? | Yes | No" });
    await settle();
    const [card] = await owner.listCards({ status: "pending" });
    expect(card).toMatchObject({
      kind: "question",
      sessionId: created.id,
      text: "Merge now?",
      options: ["Yes", "No"],
      status: "pending",
    });
    const answered = await owner.answerCard(card?.id ?? "", { choices: ["Yes"] });
    expect(answered.status).toBe("answered");
    expect((await turnEnd(created.turns[0]?.id ?? "")).text).toBe("answer: Yes");
    expect(await owner.listCards({ status: "pending" })).toEqual([]);
    expect((await owner.listCards({ status: "answered" })).map((c) => c.id)).toEqual([card?.id]);
    expect(await owner.listCards()).toHaveLength(1);
  });

  it("takes a free answer", async () => {
    const { owner, turnEnd } = await ownerHarness();
    const created = await owner.createSession({ text: "ask: Which branch?" });
    await settle();
    const [card] = await owner.listCards();
    await owner.answerCard(card?.id ?? "", { answer: "main" });
    expect((await turnEnd(created.turns[0]?.id ?? "")).text).toBe("answer: main");
  });

  it("refuses an approval body, choices the card does not offer, a second answer, and unknown ids", async () => {
    const { owner } = await ownerHarness();
    await owner.createSession({ text: "ask: Merge now? | Yes | No" });
    await settle();
    const [card] = await owner.listCards();
    const id = card?.id ?? "";
    const approval = await refusal(owner.answerCard(id, { choice: "allow" }), "REMOTE_RELAY_INVALID_INPUT");
    expect(approval.message).toContain("is a question, not an approval");
    const offered = await refusal(owner.answerCard(id, { choices: ["Maybe"] }), "REMOTE_RELAY_INVALID_INPUT");
    expect(offered.message).toContain("Yes, No");
    await owner.answerCard(id, { choices: ["No"] });
    const again = await refusal(owner.answerCard(id, { answer: "late" }), "REMOTE_RELAY_INVALID_INPUT");
    expect(again.message).toContain("no longer pending (answered)");
    await refusal(owner.answerCard("q_missing", { answer: "x" }), "REMOTE_RELAY_NOT_FOUND");
  });

  it("a card whose turn was stopped is ended and cannot be answered", async () => {
    const { owner } = await ownerHarness();
    const created = await owner.createSession({ text: "ask: Continue? | Yes" });
    await settle();
    await owner.killSession(created.id);
    const [card] = await owner.listCards();
    expect(card?.status).toBe("ended");
    await refusal(owner.answerCard(card?.id ?? "", { choices: ["Yes"] }), "REMOTE_RELAY_INVALID_INPUT");
  });
});

describe("owner API: settings (DESIGN §4 /settings, GAP-02, R-WST-02)", () => {
  it("reads the defaults and keeps a patch", async () => {
    const { owner } = await ownerHarness();
    expect((await owner.getSettings()).agentSessions).toEqual({ enabled: true, longestWaitSeconds: 600 });
    const patched = await owner.patchSettings({ agentSessions: { enabled: false } });
    expect(patched.agentSessions).toEqual({ enabled: false, longestWaitSeconds: 600 });
    expect(await owner.getSettings()).toEqual(patched);
  });
});
