import { LIMITS, type PeerOrigin } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { refusal, settle, track } from "../actions/harness";
import { createFederation, type Federation, type FedRelay, relayOf } from "./harness";

async function paired(options: { readonly mode?: "agent" | "ask" | "plan" } = {}) {
  const fed = await createFederation(["desk", "build-box"]);
  const desk = relayOf(fed, "desk");
  const box = relayOf(fed, "build-box");
  await desk.pair(box);
  await box.pair(desk);
  if (options.mode !== undefined) {
    await desk.engine.owner.patchSession(desk.caller.id, { mode: options.mode });
  }
  await desk.write("work on build-box");
  await desk.inTurn();
  return { fed, desk, box };
}

const pending = (relay: FedRelay) => relay.stores.cards.listCards({ status: "pending" });

/** Starts the call, lets it raise its card, and returns both. */
async function raise(relay: FedRelay, input: unknown) {
  const call = track(relay.call(input));
  await settle(30);
  const cards = await pending(relay);
  expect(cards, JSON.stringify(call.settled() ? await call.promise : "still waiting")).toHaveLength(1);
  expect(call.settled()).toBe(false);
  return { call, card: cards[0] as NonNullable<(typeof cards)[number]> };
}

function calls(fed: Federation) {
  return fed.requests.map(
    ({ request }) => `${String(request.call.action)}${request.origin.preflight ? "?" : ""}`,
  );
}

describe("approval cards for calls on a paired relay (DESIGN GAP-04)", () => {
  it("R-UI-01(c): in ask mode a send to a paired relay is checked there, asks here, and runs there on Allow", async () => {
    const { fed, desk, box } = await paired({ mode: "ask" });
    const target = await box.ownerSession("Nightly deploy");
    const { call, card } = await raise(desk, {
      action: "send",
      relay: "build-box",
      session: target.id,
      text: "status?",
      wait_seconds: 0,
    });
    expect(card).toMatchObject({
      kind: "write_in_mode",
      conversation: desk.caller.id,
      targetRelay: "build-box",
      targetSession: target.id,
      text: expect.stringContaining(`send on relay "build-box" session ${target.id} ("Nightly deploy")`),
    });
    expect(calls(fed)).toEqual(["send?"]);
    expect(await box.stores.sessions.listMessages(target.id)).toEqual([]);
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
    expect(await call.promise).toMatchObject({ ok: true, relay: "build-box", session: target.id });
    expect(calls(fed)).toEqual(["send?", "send"]);
    expect((await box.stores.sessions.listMessages(target.id))[0]?.text).toContain("status?");
  });

  it("GAP-04: Deny refuses with REMOTE_RELAY_PERMISSION and the paired relay never gets the call", async () => {
    const { fed, desk, box } = await paired({ mode: "plan" });
    const target = await box.ownerSession();
    const { call, card } = await raise(desk, { action: "archive", relay: "build-box", session: target.id });
    await desk.engine.owner.answerCard(card.id, { choice: "deny" });
    expect(refusal(await call.promise).code).toBe("REMOTE_RELAY_PERMISSION");
    expect(calls(fed)).toEqual(["archive?"]);
    expect((await box.stores.sessions.getSession(target.id))?.archivedAt).toBeNull();
  });

  it("R-MDL-01, R-CRE-04: an unknown model there is refused before any card", async () => {
    const { fed, desk } = await paired();
    const refused = await desk.call({
      action: "create_session",
      relay: "build-box",
      text: "hi",
      model: "test-9",
      wait_seconds: 0,
    });
    expect(refusal(refused).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(refused).toMatchObject({ models: ["test-1", "test-2"], suggestions: ["test-1", "test-2"] });
    expect(await pending(desk)).toEqual([]);
    expect(calls(fed)).toEqual(["create_session?"]);
  });

  it("R-UI-01(a), R-CGRP-05: the first session on a paired relay asks after the group lookup there, naming the group", async () => {
    const { desk, box } = await paired();
    const group = await box.engine.owner.createGroup({ name: "Release 2.4" });
    const { call, card } = await raise(desk, {
      action: "create_session",
      relay: "build-box",
      text: "Run the checklist.",
      group: "release 2.4",
      wait_seconds: 0,
    });
    expect(card).toMatchObject({
      kind: "first_create_session",
      targetRelay: "build-box",
      detail: [`Group: Release 2.4 (${group.id})`],
    });
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
    const created = await call.promise;
    expect(created).toMatchObject({ ok: true, relay: "build-box", group: { id: group.id, role: "member" } });
    // Allow covers the conversation's later sessions, on any relay (GAP-04 (a)).
    await desk.ok({ action: "create_session", relay: "build-box", text: "again", wait_seconds: 0 });
    expect(await pending(desk)).toEqual([]);
  });

  it("R-UPD-09/10: changing a session there that this conversation did not start asks once, naming the change", async () => {
    const { fed, desk, box } = await paired();
    const theirs = await box.ownerSession("Theirs");
    const { call, card } = await raise(desk, {
      action: "update_session",
      relay: "build-box",
      session: theirs.id,
      title: "Renamed",
      effort: "low",
    });
    expect(card).toMatchObject({
      kind: "update_other_session",
      targetRelay: "build-box",
      targetSession: theirs.id,
      detail: ["Effort: low · Title: Renamed"],
      text: expect.stringContaining('("Theirs")'),
    });
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
    expect(await call.promise).toMatchObject({ ok: true, changed: ["effort", "title"] });
    // R-UPD-10: Allow covers later changes by this conversation to such sessions on that relay.
    await desk.ok({ action: "update_session", relay: "build-box", session: theirs.id, title: "Again" });
    expect((await box.stores.sessions.getSession(theirs.id))?.title).toBe("Again");
    expect(await pending(desk)).toEqual([]);
    expect(calls(fed)).toEqual(["update_session?", "update_session", "update_session"]);
  });

  it("R-UPD-09: a session this conversation started there changes without a card", async () => {
    const { desk, box } = await paired();
    const { call, card } = await raise(desk, {
      action: "create_session",
      relay: "build-box",
      text: "hi",
      title: "Mine",
      wait_seconds: 0,
    });
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
    const mine = String((await call.promise).session);
    expect((await box.stores.sessions.getSession(mine))?.createdBy).toEqual({
      relay: "desk",
      session: desk.caller.id,
    });
    expect(
      await desk.ok({ action: "update_session", relay: "build-box", session: mine, title: "Still mine" }),
    ).toMatchObject({
      changed: ["title"],
    });
    expect(await pending(desk)).toEqual([]);
  });

  it("R-UPD-12: the paired relay refuses another conversation's session unless the caller's owner allowed it", async () => {
    const { box } = await paired();
    const theirs = await box.ownerSession("Theirs");
    const origin: PeerOrigin = {
      relay: "desk",
      session: "ses_a",
      title: "Planner",
      model: "test-1",
      hops: 1,
      userUnlocked: true,
    };
    const update = { action: "update_session", relay: "this", session: theirs.id, title: "X" };
    expect(refusal(await box.engine.executeFromPeer(origin, update))).toMatchObject({
      code: "REMOTE_RELAY_PERMISSION",
      error: expect.stringContaining('needs the user\'s Allow on relay "desk"'),
    });
    expect(
      await box.engine.executeFromPeer({ ...origin, approvals: { updateOtherSessions: true } }, update),
    ).toMatchObject({ ok: true, changed: ["title"] });
  });

  it("R-UPD-11, GAP-04: no turn to show the card in → REMOTE_RELAY_NO_ACTIVE_TURN, after the checks there", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    const box = relayOf(fed, "build-box");
    await desk.pair(box);
    await desk.engine.owner.patchSession(desk.caller.id, { mode: "ask" });
    await desk.write("build-box");
    await settle();
    const target = await box.ownerSession();
    expect(
      refusal(
        await desk.call({
          action: "send",
          relay: "build-box",
          session: target.id,
          text: "x",
          wait_seconds: 0,
        }),
      ).code,
    ).toBe("REMOTE_RELAY_NO_ACTIVE_TURN");
    expect(
      refusal(
        await desk.call({
          action: "send",
          relay: "build-box",
          session: "ses_nope",
          text: "x",
          wait_seconds: 0,
        }),
      ).code,
    ).toBe("REMOTE_RELAY_NOT_FOUND");
  });

  it("GAP-04 (f): prompts to a paired relay's agents count toward the anti-loop guard", async () => {
    const { desk, box } = await paired();
    const target = await box.ownerSession();
    const send = { action: "send", relay: "build-box", session: target.id, text: "x", wait_seconds: 0 };
    for (let i = 0; i < LIMITS.antiLoopPrompts; i++) {
      await desk.ok(send);
    }
    expect(await desk.stores.loopCounters.getLoopCounter(desk.caller.id)).toBe(LIMITS.antiLoopPrompts);
    const { call, card } = await raise(desk, send);
    expect(card).toMatchObject({ kind: "anti_loop", targetRelay: "build-box" });
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
    expect(await call.promise).toMatchObject({ ok: true });
    expect(await desk.stores.loopCounters.getLoopCounter(desk.caller.id)).toBe(1);
  });

  it("R-UPD-10: an Allow for other sessions' changes covers the relay it was given for, not another", async () => {
    const { desk, box } = await paired();
    const here = await desk.ownerSession("Mine here");
    const local = await raise(desk, {
      action: "update_session",
      relay: "this",
      session: here.id,
      title: "A",
    });
    expect(local.card).toMatchObject({ kind: "update_other_session", targetRelay: "desk" });
    await desk.engine.owner.answerCard(local.card.id, { choice: "allow" });
    await local.call.promise;
    const theirs = await box.ownerSession("Theirs");
    const remote = await raise(desk, {
      action: "update_session",
      relay: "build-box",
      session: theirs.id,
      title: "B",
    });
    expect(remote.card).toMatchObject({ kind: "update_other_session", targetRelay: "build-box" });
    await desk.engine.owner.answerCard(remote.card.id, { choice: "deny" });
    expect(refusal(await remote.call.promise).code).toBe("REMOTE_RELAY_PERMISSION");
    expect((await box.stores.sessions.getSession(theirs.id))?.title).toBe("Theirs");
  });
});

describe("answer_question on a paired relay (§20)", () => {
  it("R-ANS-01: the agent here answers a question card a session there waits on; that turn goes on with the answer", async () => {
    const { desk, box } = await paired();
    const waiting = await box.ownerSession("Release");
    box.provider.hold(false);
    await box.engine.owner.postMessage(waiting.id, "ask: Merge now? | Merge | Wait");
    await settle(20);
    const read = await desk.ok({ action: "read_session", relay: "build-box", session: waiting.id });
    const [question] = read.pendingQuestions as { question_id: string; kind: string }[];
    expect(question).toMatchObject({ kind: "ask_user" });
    expect(
      await desk.ok({
        action: "answer_question",
        relay: "build-box",
        question_id: question?.question_id,
        choices: ["Merge"],
      }),
    ).toMatchObject({ relay: "build-box", session: waiting.id });
    await settle(20);
    const messages = await box.stores.sessions.listMessages(waiting.id);
    expect(messages.at(-1)?.text).toBe("answer: Merge");
  });

  it("R-ANS-05: a non-blocking question's id is refused here, before the paired relay is called", async () => {
    const { fed, desk } = await paired();
    expect(
      refusal(
        await desk.call({ action: "answer_question", relay: "build-box", question_id: "ask_1", answer: "x" }),
      ).code,
    ).toBe("REMOTE_RELAY_FORBIDDEN");
    expect(fed.requests).toEqual([]);
  });
});
