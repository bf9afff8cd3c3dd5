import { WaitResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createHarness, refusal, settle, track } from "./harness";

describe("wait (§18) and what comes back (§19, GAP-10)", () => {
  it("R-WAIT-01/02: waits for the prompt message_id names", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const sent = await h.sendHeld(target.id);
    const waiting = track(
      h.call({
        action: "wait",
        relay: "this",
        session: target.id,
        message_id: sent.message_id,
        wait_seconds: 300,
      }),
    );
    const turn = await h.provider.nextTurn();
    await settle();
    expect(waiting.settled()).toBe(false);
    turn.finish("All green.");
    const result = WaitResultSchema.parse(await waiting.promise);
    expect(result).toMatchObject({
      status: "done",
      session: target.id,
      message_id: sent.message_id,
      reply: { text: "All green.", model: "test-1" },
      summary: expect.stringMatching(/^wait → desk session \w{8}: done$/),
    });
  });

  it("GAP-05: without message_id, the session's latest prompt", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.ok({ action: "send", relay: "this", session: target.id, text: "one" });
    const second = await h.ok({ action: "send", relay: "this", session: target.id, text: "two" });
    const result = await h.ok({ action: "wait", relay: "this", session: target.id });
    expect(result).toMatchObject({
      status: "done",
      message_id: second.message_id,
      reply: { text: "echo: two" },
    });
  });

  it("a session without prompts, or a message_id of another session, is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    const a = await h.ownerSession();
    const b = await h.ownerSession();
    expect(refusal(await h.call({ action: "wait", relay: "this", session: a.id })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
    const sent = await h.ok({ action: "send", relay: "this", session: a.id, text: "hi" });
    expect(
      refusal(await h.call({ action: "wait", relay: "this", session: b.id, message_id: sent.message_id }))
        .code,
    ).toBe("REMOTE_RELAY_NOT_FOUND");
    expect(refusal(await h.call({ action: "wait", relay: "this", session: "ses_none" })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
  });

  it("R-WST-01, GAP-05: wait_seconds defaults to 60", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const pending = track(h.call({ action: "send", relay: "this", session: target.id, text: "hold" }));
    await h.provider.nextTurn();
    await settle();
    await h.clock.advanceAsync(59_999);
    await settle();
    expect(pending.settled()).toBe(false);
    await h.clock.advanceAsync(1);
    expect(await pending.promise).toMatchObject({ status: "running" });
  });

  it("R-WST-02/03: a wait longer than the relay allows is capped, and the note says so", async () => {
    const h = await createHarness();
    await h.patchSettings({ agentSessions: { longestWaitSeconds: 120 } });
    const target = await h.ownerSession();
    const sent = await h.sendHeld(target.id);
    await h.provider.nextTurn();
    const pending = track(
      h.call({
        action: "wait",
        relay: "this",
        session: target.id,
        message_id: sent.message_id,
        wait_seconds: 900,
      }),
    );
    await settle();
    await h.clock.advanceAsync(119_999);
    await settle();
    expect(pending.settled()).toBe(false);
    await h.clock.advanceAsync(1);
    const result = await pending.promise;
    expect(result).toMatchObject({ status: "running", message_id: sent.message_id });
    expect(result.note).toBe(
      "wait_seconds 900 is more than this relay allows: it waited at most 120 s (Longest wait per tool call). Call wait to keep waiting.",
    );
  });

  it("R-WST-03: a wait within the limit has no note", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    expect(
      await h.ok({ action: "send", relay: "this", session: target.id, text: "hi", wait_seconds: 600 }),
    ).not.toHaveProperty("note");
  });

  it("R-WST-07: wait_seconds 0 does not wait", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const sent = await h.sendHeld(target.id);
    await h.provider.nextTurn();
    expect(
      await h.ok({
        action: "wait",
        relay: "this",
        session: target.id,
        message_id: sent.message_id,
        wait_seconds: 0,
      }),
    ).toMatchObject({
      status: "running",
    });
  });

  it("GAP-10: `waiting` with pendingQuestions while the session waits on a card", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const result = WaitResultSchema.parse(
      await h.ok({
        action: "send",
        relay: "this",
        session: target.id,
        text: "ask: Deploy? | Yes | No",
        wait_seconds: 30,
      }),
    );
    expect(result.status).toBe("waiting");
    expect(result.pendingQuestions).toEqual([
      expect.objectContaining({ kind: "ask_user", text: "Deploy?", options: ["Yes", "No"] }),
    ]);
  });

  it("GAP-10: `error` with the turn's message", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const result = await h.ok({ action: "send", relay: "this", session: target.id, text: "fail: disk full" });
    expect(result).toMatchObject({ status: "error", errorMessage: "disk full" });
  });

  it("GAP-10: `stopped` after stop", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const sent = await h.sendHeld(target.id);
    await h.provider.nextTurn();
    await h.ok({ action: "stop", relay: "this", session: target.id });
    expect(
      await h.ok({ action: "wait", relay: "this", session: target.id, message_id: sent.message_id }),
    ).toMatchObject({
      status: "stopped",
    });
  });

  it("a client that goes away ends the wait early", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const controller = new AbortController();
    const pending = h.call(
      { action: "send", relay: "this", session: target.id, text: "hold", wait_seconds: 600 },
      { signal: controller.signal },
    );
    await h.provider.nextTurn();
    await settle();
    controller.abort();
    expect(await pending).toMatchObject({ ok: true, status: "running" });
  });

  it("R-WAIT-03: archived sessions can still be waited on", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const sent = await h.ok({ action: "send", relay: "this", session: target.id, text: "hi" });
    await h.stores.sessions.archiveSession({ id: target.id, at: h.clock.now() });
    expect(
      await h.ok({ action: "wait", relay: "this", session: target.id, message_id: sent.message_id }),
    ).toMatchObject({
      status: "done",
    });
  });
});
