import { LIMITS } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { CARD_POLL_MS } from "../../src/actions/approvals";
import { createEngine } from "../../src/create-engine";
import { createTestProvider } from "../../src/testing";
import { createHarness, type Harness, refusal, settle, track } from "./harness";

const LONGEST_MS = LIMITS.longestWaitSecondsDefault * 1000;

/** The caller's turn is running (held open), so a card can be shown in it. */
async function inTurn(h: Harness): Promise<void> {
  h.provider.hold();
  await h.engine.owner.postMessage(h.caller.id, "hold");
  await settle();
}

async function pendingCards(h: Harness) {
  return h.stores.cards.listCards({ status: "pending" });
}

/** Starts the call, waits until it raised its card, and returns both. */
async function raise(h: Harness, input: unknown) {
  const call = track(h.call(input));
  await settle(20);
  const cards = await pendingCards(h);
  expect(cards, "one pending card").toHaveLength(1);
  const [card] = cards;
  if (card === undefined) {
    throw new Error("no card");
  }
  expect(call.settled()).toBe(false);
  return { call, card };
}

async function answer(h: Harness, id: string, choice: "allow" | "deny") {
  await h.engine.owner.answerCard(id, { choice });
  await h.clock.advanceAsync(CARD_POLL_MS);
}

const CREATE = { action: "create_session", relay: "this", text: "a", wait_seconds: 0 } as const;

describe("approval cards on this relay (DESIGN GAP-04, R-UI-01)", () => {
  it("R-UI-01(a): the first create_session raises a card and waits; Allow runs it and the next asks nothing", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const before = (await h.stores.sessions.listSessions()).length;
    const { call, card } = await raise(h, CREATE);
    expect(card).toMatchObject({
      kind: "first_create_session",
      conversation: h.caller.id,
      action: "create_session",
      targetRelay: "desk",
      expiresAt: h.clock.now() + LONGEST_MS,
    });
    await answer(h, card.id, "allow");
    expect(await call.promise).toMatchObject({ ok: true });
    h.provider.hold(false);
    await h.ok(CREATE);
    expect(await pendingCards(h)).toEqual([]);
    expect((await h.stores.sessions.listSessions()).length).toBe(before + 2);
  });

  it("R-UI-01(a), GAP-04: Deny refuses with REMOTE_RELAY_PERMISSION and creates nothing", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const before = (await h.stores.sessions.listSessions()).length;
    const { call, card } = await raise(h, CREATE);
    await answer(h, card.id, "deny");
    const { code, error } = refusal(await call.promise);
    expect(code).toBe("REMOTE_RELAY_PERMISSION");
    expect(error).toContain("denied");
    expect(error).toContain("first_create_session");
    expect((await h.stores.sessions.listSessions()).length).toBe(before);
    expect(await h.stores.cards.getCard(card.id)).toMatchObject({ status: "denied" });
  });

  it("GAP-04: no answer within the longest wait expires the card and refuses with REMOTE_RELAY_PERMISSION", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const { call, card } = await raise(h, CREATE);
    await h.clock.advanceAsync(LONGEST_MS - CARD_POLL_MS);
    expect(call.settled()).toBe(false);
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect(refusal(await call.promise).code).toBe("REMOTE_RELAY_PERMISSION");
    expect(await h.stores.cards.getCard(card.id)).toMatchObject({ status: "expired" });
    await expect(h.engine.owner.answerCard(card.id, { choice: "allow" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
  });

  it("R-UPD-11, GAP-04: a relay-run caller with no turn in progress gets REMOTE_RELAY_NO_ACTIVE_TURN", async () => {
    const h = await createHarness({ approvalCards: true });
    expect(refusal(await h.call(CREATE)).code).toBe("REMOTE_RELAY_NO_ACTIVE_TURN");
    expect(await pendingCards(h)).toEqual([]);
  });

  it("GAP-04: an external caller always counts as in a turn", async () => {
    const external = createTestProvider({
      info: { id: "external", label: "External", drivenFromOutside: true },
    });
    const h = await createHarness({
      approvalCards: true,
      extraProviders: [external],
      caller: { provider: "external" },
    });
    const { call, card } = await raise(h, { ...CREATE, provider: "test" });
    await answer(h, card.id, "allow");
    expect(await call.promise).toMatchObject({ ok: true });
  });

  it("R-UI-01(c): in ask or plan mode every write asks, each time; reads ask nothing", async () => {
    const h = await createHarness({ approvalCards: true, caller: { mode: "plan" } });
    await inTurn(h);
    for (let i = 0; i < 2; i++) {
      const target = await h.agentSession();
      await h.ok({ action: "read_session", relay: "this", session: target.id });
      const { call, card } = await raise(h, { action: "archive", relay: "this", session: target.id });
      expect(card).toMatchObject({ kind: "write_in_mode", targetSession: target.id });
      await answer(h, card.id, "allow");
      expect(await call.promise, JSON.stringify(await call.promise)).toMatchObject({ ok: true });
    }
  });

  it("R-UPD-10: update_session of a session the conversation did not start asks once per conversation", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const other = await h.ownerSession({ title: "Someone else's" });
    const { call, card } = await raise(h, {
      action: "update_session",
      relay: "this",
      session: other.id,
      title: "Renamed",
    });
    expect(card).toMatchObject({ kind: "update_other_session", targetSession: other.id });
    await answer(h, card.id, "allow");
    expect(await call.promise).toMatchObject({ ok: true, changed: ["title"] });
    await h.ok({ action: "update_session", relay: "this", session: other.id, title: "Again" });
    expect((await h.session(other.id)).title).toBe("Again");
    expect(await pendingCards(h)).toEqual([]);
  });

  it("R-UPD-12: in ask mode, a change to another session asks both cards, in order", async () => {
    const h = await createHarness({ approvalCards: true, caller: { mode: "ask" } });
    await inTurn(h);
    const other = await h.ownerSession({ title: "Someone else's" });
    const call = track(h.call({ action: "update_session", relay: "this", session: other.id, title: "Y" }));
    await settle(20);
    const [first] = await pendingCards(h);
    expect(first).toMatchObject({ kind: "update_other_session", detail: ["Title: Y"] });
    await answer(h, first?.id ?? "", "allow");
    await settle(20);
    const [second] = await pendingCards(h);
    expect(second).toMatchObject({ kind: "write_in_mode" });
    expect(call.settled()).toBe(false);
    await answer(h, second?.id ?? "", "allow");
    expect(await call.promise).toMatchObject({ ok: true, changed: ["title"] });
  });

  it("R-UPD-10: Deny on update_session of another session changes nothing", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const other = await h.ownerSession({ title: "Someone else's" });
    const { call, card } = await raise(h, {
      action: "update_session",
      relay: "this",
      session: other.id,
      title: "X",
    });
    await answer(h, card.id, "deny");
    expect(refusal(await call.promise).code).toBe("REMOTE_RELAY_PERMISSION");
    expect((await h.session(other.id)).title).toBe("Someone else's");
  });

  it("GAP-04 (f), R-SCH-17: the 31st prompt since the owner last wrote asks; an owner message resets the count", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const target = await h.agentSession();
    await h.stores.loopCounters.resetLoopCounter(h.caller.id);
    h.provider.hold(false);
    for (let i = 0; i < LIMITS.antiLoopPrompts; i++) {
      await h.ok({ action: "send", relay: "this", session: target.id, text: `p${i}`, wait_seconds: 0 });
      await settle();
    }
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(LIMITS.antiLoopPrompts);
    const { call, card } = await raise(h, {
      action: "send",
      relay: "this",
      session: target.id,
      text: "again",
      wait_seconds: 0,
    });
    expect(card).toMatchObject({ kind: "anti_loop" });
    await answer(h, card.id, "allow");
    expect(await call.promise).toMatchObject({ ok: true });
    // Allow starts the count again, and the prompt that ran counts.
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(1);
    await h.engine.owner.postMessage(h.caller.id, "carry on");
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(0);
  });

  it("R-MDL-01: an unknown model is refused before any card", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    expect(refusal(await h.call({ ...CREATE, model: "nope-9" })).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(await h.stores.cards.listCards()).toEqual([]);
  });

  it("R-CGRP-05: the group is looked up before the card, which names it", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    expect(refusal(await h.call({ ...CREATE, group: "grp_missing" })).code).toBe(
      "REMOTE_RELAY_UNKNOWN_GROUP",
    );
    expect(await h.stores.cards.listCards()).toEqual([]);
    const group = await h.stores.groups.createGroup({
      id: "grp_rel24",
      name: "Release 2.4",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    const { call, card } = await raise(h, { ...CREATE, group: group.id });
    expect(card.detail).toEqual(["Group: Release 2.4 (grp_rel24)"]);
    await answer(h, card.id, "allow");
    expect(await call.promise).toMatchObject({ ok: true });
  });

  it("GAP-04: a restart (new engine over the same stores) keeps the pending card listed", async () => {
    const h = await createHarness({ approvalCards: true });
    await inTurn(h);
    const { card } = await raise(h, CREATE);
    const restarted = createEngine(h.deps);
    await restarted.start();
    try {
      const listed = await restarted.owner.listCards({ status: "pending" });
      expect(listed).toEqual([
        expect.objectContaining({
          id: card.id,
          kind: "approval",
          reason: "first_create_session",
          status: "pending",
        }),
      ]);
    } finally {
      await restarted.close();
    }
  });
});
