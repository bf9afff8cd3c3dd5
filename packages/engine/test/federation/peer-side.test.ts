import type { PeerOrigin } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { refusal, settle } from "../actions/harness";
import { createFederation, relayOf } from "./harness";

const ORIGIN: PeerOrigin = {
  relay: "desk",
  session: "ses_a00000000001",
  title: "Planner",
  model: "test-2",
  hops: 1,
  userUnlocked: true,
};

async function target() {
  const fed = await createFederation(["build-box"]);
  const box = relayOf(fed, "build-box");
  const run = (input: unknown, origin: PeerOrigin = ORIGIN) => box.engine.executeFromPeer(origin, input);
  return { fed, box, run };
}

describe("a call from another relay's agent, on the relay it names (DESIGN §4 POST /v1/peer/tool)", () => {
  it("R-CRE-03, R-CGRP-02, R-UI-03: a session it starts follows the caller's settings this relay offers, records who started it, and joins no group", async () => {
    const { box, run } = await target();
    const started = await run(
      {
        action: "create_session",
        relay: "this",
        text: "Run the checklist.",
        wait_seconds: 0,
      },
      { ...ORIGIN, defaults: { provider: "test", model: "test-2", effort: "high", mode: "plan" } },
    );
    expect(started).toMatchObject({
      ok: true,
      relay: "build-box",
      provider: "test",
      model: "test-2",
      effort: "high",
      mode: "plan",
      group: null,
    });
    const session = await box.stores.sessions.getSession(String(started.session));
    expect(session).toMatchObject({
      createdBy: { relay: "desk", session: ORIGIN.session },
      viaAgent: "Planner",
      group: null,
    });
    // A provider or model this relay does not offer falls back to its own default.
    const fallback = await run(
      { action: "create_session", relay: "this", text: "x", wait_seconds: 0 },
      { ...ORIGIN, defaults: { provider: "claude-code", model: "claude-opus-5-5", mode: "agent" } },
    );
    expect(fallback).toMatchObject({ ok: true, provider: "test", model: "test-1" });
  });

  it("R-LREL-03: list_relays is not forwarded; a third relay's name is refused", async () => {
    const { run } = await target();
    expect(refusal(await run({ action: "list_relays" })).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(refusal(await run({ action: "list_sessions", relay: "ci" })).code).toBe("REMOTE_RELAY_NOT_FOUND");
    expect(await run({ action: "list_sessions", relay: "build-box" })).toMatchObject({ ok: true });
  });

  it("R-UPD-13, R-CALL-07: the call rules are this relay's own (unknown arguments of create_session are refused here)", async () => {
    const { run } = await target();
    expect(
      refusal(await run({ action: "create_session", relay: "this", text: "x", session: "ses_1" })),
    ).toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining("does not take: session"),
    });
    expect(await run({ action: "list_sessions", relay: "this", verbose: true })).toMatchObject({
      ok: true,
      ignored: ["verbose"],
    });
  });

  it("preflight: every write is checked whole and changes nothing; the answer says what the cards must show", async () => {
    const { box, run } = await target();
    const session = await box.ownerSession("Nightly deploy");
    box.provider.hold();
    await box.engine.owner.postMessage(session.id, "hold");
    await settle();
    const question = box.provider.turns[0];
    question?.ask("Merge now?", ["Merge", "Wait"]).catch(() => {
      // The turn is stopped when the relay closes at the end of the test.
    });
    await settle();
    const [asked] = await box.stores.questions.listBlockingQuestions({ status: "pending" });
    const group = await box.engine.owner.createGroup({ name: "Release" });
    const before = {
      sessions: await box.stores.sessions.listSessions({ scope: "all" }),
      messages: await box.stores.sessions.listMessages(session.id),
    };
    const preflight = { ...ORIGIN, preflight: true };
    const writes = [
      { action: "send", relay: "this", session: session.id, text: "x", wait_seconds: 0 },
      { action: "create_session", relay: "this", text: "x", group: "Release", wait_seconds: 0 },
      { action: "update_session", relay: "this", session: session.id, title: "New", group: "none" },
      { action: "answer_question", relay: "this", question_id: String(asked?.id), choices: ["Merge"] },
      { action: "stop", relay: "this", session: session.id },
      { action: "archive", relay: "this", session: session.id },
    ];
    const answers = [];
    for (const input of writes) {
      const answer = await run(input, preflight);
      expect(answer, input.action).toMatchObject({
        ok: true,
        summary: expect.stringContaining("checked, nothing done"),
      });
      answers.push(answer.preflight);
    }
    expect(answers).toEqual([
      { target: { id: session.id, title: "Nightly deploy", startedByCaller: false, busy: true } },
      { details: { group: { id: group.id, name: "Release" } } },
      {
        target: { id: session.id, title: "Nightly deploy", startedByCaller: false, busy: false },
        details: { changes: { title: "New" } },
      },
      { target: { id: session.id, startedByCaller: false, busy: true } },
      { target: { id: session.id, title: "Nightly deploy", startedByCaller: false, busy: true } },
      { target: { id: session.id, title: "Nightly deploy", startedByCaller: false, busy: true } },
    ]);
    expect(await box.stores.sessions.listSessions({ scope: "all" })).toEqual(before.sessions);
    expect(await box.stores.sessions.listMessages(session.id)).toEqual(before.messages);
    expect(await box.stores.questions.getBlockingQuestion(String(asked?.id))).toMatchObject({
      status: "pending",
    });
  });

  it("preflight of a call that needs no write answers with its real result", async () => {
    const { box, run } = await target();
    const session = await box.ownerSession("Idle");
    expect(
      await run({ action: "stop", relay: "this", session: session.id }, { ...ORIGIN, preflight: true }),
    ).toMatchObject({
      ok: true,
      stopRequested: false,
    });
    const unchanged = await run(
      { action: "update_session", relay: "this", session: session.id, title: "Idle" },
      { ...ORIGIN, preflight: true },
    );
    expect(unchanged).toMatchObject({ ok: true, changed: [] });
    expect(unchanged).not.toHaveProperty("preflight");
  });

  it("R-LOCAL-06: another relay's agent has no conversation here, so nothing is refused as its own", async () => {
    const { box, run } = await target();
    const session = await box.ownerSession();
    expect(
      await run(
        { action: "archive", relay: "this", session: session.id },
        { ...ORIGIN, session: session.id },
      ),
    ).toMatchObject({ ok: true, archived: true });
  });
});
