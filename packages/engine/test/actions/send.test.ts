import { SendResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestProvider } from "../../src/testing";
import { createHarness, refusal, settle, track } from "./harness";

describe("send (§14)", () => {
  it("R-SEND-01/02: queues the prompt and returns the reply", async () => {
    const h = await createHarness();
    const target = await h.ownerSession({ id: "ses_3f9c2a1e0000" });
    const result = SendResultSchema.parse(
      await h.ok({ action: "send", relay: "this", session: target.id, text: "Did the deploy go through?" }),
    );
    expect(result).toEqual({
      ok: true,
      relay: "desk",
      summary: "send → desk session 3f9c2a1e: done",
      status: "done",
      session: target.id,
      message_id: expect.stringMatching(/^msg_/),
      reply: { text: "echo: Did the deploy go through?", model: "test-1" },
    });
    expect(h.provider.prompts).toEqual([
      { sessionId: target.id, prompt: "Did the deploy go through?", model: "test-1" },
    ]);
  });

  it("R-UI-05: the prompt carries the sender's provenance", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const sent = await h.ok({ action: "send", relay: "this", session: target.id, text: "hi" });
    const [message] = await h.stores.sessions.listMessages(target.id);
    expect(message).toMatchObject({
      id: sent.message_id,
      provenance: {
        relay: "desk",
        session: h.caller.id,
        title: "Planner",
        model: "test-1",
        hops: 0,
        userUnlocked: false,
      },
    });
    const turn = await h.engine.execute(h.caller.id, { action: "wait", relay: "this", session: target.id });
    expect(turn).toMatchObject({ status: "done" });
  });

  it("R-SEND-06, R-LOCAL-06: never to the caller's own conversation", async () => {
    const h = await createHarness();
    expect(
      refusal(await h.call({ action: "send", relay: "this", session: h.caller.id, text: "hi" })).code,
    ).toBe("REMOTE_RELAY_SELF");
    expect(h.provider.prompts).toEqual([]);
  });

  it("an unknown, deleted or archived session is REMOTE_RELAY_NOT_FOUND and nothing is sent", async () => {
    const h = await createHarness();
    const archived = await h.ownerSession({ title: "Old" });
    await h.stores.sessions.archiveSession({ id: archived.id, at: h.clock.now() });
    expect(refusal(await h.call({ action: "send", relay: "this", session: "ses_nope", text: "hi" }))).toEqual(
      {
        code: "REMOTE_RELAY_NOT_FOUND",
        error:
          'No session "ses_nope" on relay "desk". list_sessions shows the sessions there. Nothing was sent.',
      },
    );
    expect(
      refusal(await h.call({ action: "send", relay: "this", session: archived.id, text: "hi" })),
    ).toEqual({
      code: "REMOTE_RELAY_NOT_FOUND",
      error: `Session ${archived.id} ("Old") on relay "desk" is archived; only its owner can bring it back. Nothing was sent.`,
    });
    expect(await h.stores.sessions.listMessages(archived.id)).toEqual([]);
  });

  it("DESIGN §5: a session driven from outside takes no prompt (REMOTE_RELAY_INVALID_INPUT)", async () => {
    const external = createTestProvider({
      info: { id: "external", label: "External", drivenFromOutside: true },
    });
    const h = await createHarness({ extraProviders: [external] });
    const target = await h.ownerSession({ provider: "external", model: "test-1", title: "Cursor" });
    const result = refusal(await h.call({ action: "send", relay: "this", session: target.id, text: "hi" }));
    expect(result.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(result.error).toContain("driven from outside the relay");
    expect(await h.stores.sessions.listMessages(target.id)).toEqual([]);
  });

  it("R-SEND-04, R-MDL-02: an unknown model is refused and nothing is sent", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const result = await h.call({
      action: "send",
      relay: "this",
      session: target.id,
      text: "hi",
      model: "test-3",
    });
    expect(result).toEqual({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error:
        "Unknown model 'test-3' for Test provider on relay \"desk\"; did you mean 'test-1'? Valid ids: test-1, test-2. Nothing was sent.",
      suggestions: ["test-1", "test-2"],
      models: ["test-1", "test-2"],
    });
    expect(await h.stores.sessions.listMessages(target.id)).toEqual([]);
  });

  it("R-SEND-03: model and effort apply to this turn and the session's next ones", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const result = await h.ok({
      action: "send",
      relay: "this",
      session: target.id,
      text: "hi",
      model: "test-2",
      effort: "high",
    });
    expect(result.reply).toEqual({ text: "echo: hi", model: "test-2" });
    expect(await h.session(target.id)).toMatchObject({ model: "test-2", effort: "high" });
  });

  it("an effort the provider does not offer is REMOTE_RELAY_INVALID_INPUT and nothing is sent", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    expect(
      refusal(await h.call({ action: "send", relay: "this", session: target.id, text: "hi", effort: "max" })),
    ).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: 'effort must be one of Test provider\'s efforts: low, high (got "max"). Nothing was sent.',
    });
    expect(h.provider.prompts).toEqual([]);
  });

  it("R-BILL-02, DESIGN GAP-01: a billing switch of a non-Claude session is REMOTE_RELAY_PROVIDER_UNAVAILABLE and nothing is sent", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const result = refusal(
      await h.call({
        action: "send",
        relay: "this",
        session: target.id,
        text: "hi",
        provider: "claude-api",
        model: "test-2",
      }),
    );
    expect(result.code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
    expect(result.error).toContain(
      'only a Claude session moves between "claude" (subscription) and "claude-api" (API key)',
    );
    expect(result.error).toMatch(/Nothing was sent\.$/);
    expect(await h.stores.sessions.listMessages(target.id)).toEqual([]);
    expect(await h.session(target.id)).toMatchObject({ model: "test-1" });
  });

  it("R-BILL-06: `provider` naming the session's own provider keeps its billing and sends", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    expect(
      await h.ok({ action: "send", relay: "this", session: target.id, text: "hi", provider: "test" }),
    ).toMatchObject({
      status: "done",
    });
  });

  it("R-SEND-05, R-UPD-25: without mode the caller's mode passes on; a named mode wins", async () => {
    const h = await createHarness({ caller: { mode: "plan" } });
    const target = await h.ownerSession({ mode: "ask" });
    await h.ok({ action: "send", relay: "this", session: target.id, text: "one" });
    expect((await h.session(target.id)).mode).toBe("plan");
    expect(h.provider.turns[0]?.input.mode).toBe("plan");
    await h.ok({ action: "send", relay: "this", session: target.id, text: "two", mode: "agent" });
    expect((await h.session(target.id)).mode).toBe("agent");
    expect(h.provider.turns[1]?.input.mode).toBe("agent");
  });

  it("§14: a busy session queues the prompt behind its running turn", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.sendHeld(target.id);
    const first = await h.provider.nextTurn();
    const queued = await h.ok({
      action: "send",
      relay: "this",
      session: target.id,
      text: "second",
      wait_seconds: 0,
    });
    expect(queued).toMatchObject({ status: "queued", summary: expect.stringMatching(/: queued$/) });
    expect(queued).not.toHaveProperty("reply");
    first.finish();
    const done = await h.ok({
      action: "wait",
      relay: "this",
      session: target.id,
      message_id: queued.message_id,
    });
    expect(done).toMatchObject({ status: "done", reply: { text: "echo: second" } });
  });

  it("R-WST-06: openUrl when the relay has a console", async () => {
    const h = await createHarness({ openUrl: (id) => `https://desk.example/s/${id}` });
    const target = await h.ownerSession();
    const result = await h.ok({ action: "send", relay: "this", session: target.id, text: "hi" });
    expect(result.openUrl).toBe(`https://desk.example/s/${target.id}`);
  });

  it("R-WST-01, GAP-10: a held turn returns `running` with the text so far after exactly wait_seconds", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const pending = track(
      h.call({ action: "send", relay: "this", session: target.id, text: "hold", wait_seconds: 5 }),
    );
    const turn = await h.provider.nextTurn();
    turn.write("working on it");
    await settle();
    await h.clock.advanceAsync(4999);
    await settle();
    expect(pending.settled()).toBe(false);
    await h.clock.advanceAsync(1);
    const result = await pending.promise;
    expect(result).toMatchObject({
      ok: true,
      status: "running",
      reply: { text: "working on it", model: "test-1" },
    });
    expect(result).not.toHaveProperty("note");
  });
});
