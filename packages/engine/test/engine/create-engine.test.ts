import { describe, expect, it, onTestFinished } from "vitest";
import { createEngine } from "../../src/create-engine";
import { createHarness } from "../actions/harness";

describe("createEngine", () => {
  it("a worker's relay_tool call runs through the engine as its session (the `!tool` path)", async () => {
    const h = await createHarness();
    const call = JSON.stringify({
      action: "create_session",
      relay: "this",
      title: "Child",
      text: "hello child",
    });
    const result = await h.ok({
      action: "send",
      relay: "this",
      session: (await h.ownerSession({ title: "Driver" })).id,
      text: `tool: ${call}`,
    });
    const reply = JSON.parse((result.reply as { text: string }).text);
    expect(reply).toMatchObject({
      ok: true,
      status: "done",
      title: "Child",
      reply: { text: "echo: hello child" },
      group: { name: "Driver", role: "member" },
    });
    expect(await h.session(reply.session)).toMatchObject({ viaAgent: "Driver" });
  });

  it("R-LOCAL-06: a worker's call on its own session is refused like any other", async () => {
    const h = await createHarness();
    const driver = await h.ownerSession();
    const call = JSON.stringify({ action: "stop", relay: "this", session: driver.id });
    const result = await h.ok(
      { action: "send", relay: "this", session: driver.id, text: `tool: ${call}` },
      h.caller.id,
    );
    expect(JSON.parse((result.reply as { text: string }).text)).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_SELF",
    });
  });

  it("exposes the owner API over the same stores and runtime", async () => {
    const h = await createHarness();
    const session = await h.engine.owner.getSession(h.caller.id);
    expect(session).toMatchObject({ id: h.caller.id, title: "Planner" });
    expect((await h.engine.owner.getSettings()).agentSessions.enabled).toBe(true);
  });

  it("start() recovers after a restart: a turn left running ends as error, and wait reports it", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.stores.sessions.appendMessage({
      id: "msg_orphan",
      sessionId: target.id,
      role: "user",
      text: "x",
      createdAt: h.clock.now(),
    });
    await h.stores.sessions.enqueueTurn({
      id: "trn_orphan",
      sessionId: target.id,
      promptMessageId: "msg_orphan",
      origin: { kind: "owner" },
      queuedAt: h.clock.now(),
    });
    await h.stores.sessions.claimNextTurn({ sessionId: target.id, now: h.clock.now() });
    // A new process over the same stores.
    const restarted = createEngine(h.deps);
    onTestFinished(() => restarted.close());
    await restarted.start();
    const result = await restarted.execute(h.caller.id, {
      action: "wait",
      relay: "this",
      session: target.id,
    });
    expect(result).toMatchObject({
      ok: true,
      status: "error",
      message_id: "msg_orphan",
      errorMessage: expect.stringContaining("restarted"),
    });
  });
});
