import { RelayError } from "@oar/core";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src";
import { RELAY_RESTARTED_MESSAGE } from "../../src/runtime/recovery";
import { openTestStores } from "../../src/testing";
import { runtimeHarness, settle, taggedIds } from "./harness";

const provenance = {
  relay: "desk",
  session: "ses_sender",
  title: "Release manager",
  model: "test-2",
  hops: 0,
  userUnlocked: false,
};

const externalProvider: Provider = {
  info: { id: "outside", label: "Outside", models: null, efforts: [], drivenFromOutside: true },
  startWorker: () => null,
};

describe("SessionRuntime: queue", () => {
  it("appends the prompt, queues its turn and runs it on the session's worker", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { messageId, turn } = await h.prompt(session.id, "hello");

    expect(turn).toMatchObject({ sessionId: session.id, status: "queued", promptMessageId: messageId });
    const snapshot = await h.runtime.waitForTurn(turn.id, 1000);
    expect(snapshot).toEqual({
      turnId: turn.id,
      sessionId: session.id,
      messageId,
      status: "done",
      text: "echo: hello",
      model: "test-1",
      error: null,
      pendingQuestions: [],
    });
    const messages = await h.stores.sessions.listMessages(session.id);
    expect(messages.map((m) => [m.role, m.text, m.turnId])).toEqual([
      ["user", "hello", turn.id],
      ["assistant", "echo: hello", turn.id],
    ]);
    expect(await h.stores.sessions.getTurn(turn.id)).toMatchObject({ status: "done", reply: "echo: hello" });
    expect((await h.stores.sessions.getSession(session.id))?.state).toBe("idle");
    expect(h.provider.prompts).toEqual([{ sessionId: session.id, prompt: "hello", model: "test-1" }]);
  });

  it("runs one turn at a time per session, in queue order; the session is running_turn until the queue is empty", async () => {
    const h = await runtimeHarness();
    h.provider.hold();
    const session = await h.createSession();
    const first = await h.prompt(session.id, "one");
    const second = await h.prompt(session.id, "two");
    const third = await h.prompt(session.id, "three");
    await settle();

    expect(h.provider.turns.map((t) => t.input.prompt)).toEqual(["one"]);
    expect((await h.runtime.snapshot(first.turn.id)).status).toBe("running");
    expect((await h.runtime.snapshot(second.turn.id)).status).toBe("queued");
    expect((await h.stores.sessions.getSession(session.id))?.state).toBe("running_turn");

    (await h.provider.nextTurn()).finish();
    await settle();
    expect(h.provider.turns.map((t) => t.input.prompt)).toEqual(["one", "two"]);
    expect((await h.runtime.snapshot(first.turn.id)).status).toBe("done");
    expect((await h.stores.sessions.getSession(session.id))?.state).toBe("running_turn");

    (await h.provider.nextTurn()).finish("second reply");
    (await h.provider.nextTurn()).finish();
    expect((await h.runtime.waitForTurn(third.turn.id, 1000)).text).toBe("echo: three");
    expect((await h.runtime.snapshot(second.turn.id)).text).toBe("second reply");
    expect(h.provider.workersStarted).toEqual([session.id]);
    expect((await h.stores.sessions.getSession(session.id))?.state).toBe("idle");
  });

  it("runs turns of two sessions at the same time", async () => {
    const h = await runtimeHarness();
    h.provider.hold();
    const a = await h.createSession();
    const b = await h.createSession();
    const turnA = await h.prompt(a.id, "for a");
    const turnB = await h.prompt(b.id, "for b");
    await settle();

    expect(h.provider.turns.map((t) => t.sessionId).sort()).toEqual([a.id, b.id].sort());
    expect(h.runtime.inFlight(a.id)).toEqual({ turnId: turnA.turn.id, text: "" });
    expect(h.runtime.inFlight(b.id)).toEqual({ turnId: turnB.turn.id, text: "" });
    h.provider.release();
    expect((await h.runtime.waitForTurn(turnA.turn.id, 1000)).status).toBe("done");
    expect((await h.runtime.waitForTurn(turnB.turn.id, 1000)).status).toBe("done");
  });

  it("keeps the ↗ from provenance of a prompt another agent sent (R-UI-05)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { messageId, turn } = await h.runtime.enqueuePrompt({
      sessionId: session.id,
      text: "Deploy it",
      origin: { kind: "agent", mode: "plan" },
      provenance,
    });
    await h.runtime.waitForTurn(turn.id, 1000);
    const [prompt] = await h.stores.sessions.listMessages(session.id);
    expect(prompt).toMatchObject({ id: messageId, role: "user", provenance });
    expect(turn.origin).toEqual({ kind: "agent", mode: "plan", provenance });
    expect(h.provider.turns[0]?.input.mode).toBe("plan");
  });

  it("streams the reply as inFlight while the turn runs", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    const running = await h.provider.nextTurn();
    running.write("Working");
    running.write(" on it");
    expect(h.runtime.inFlight(session.id)).toEqual({ turnId: turn.id, text: "Working on it" });
    expect(await h.runtime.snapshot(turn.id)).toMatchObject({ status: "running", text: "Working on it" });
    running.finish("Done.");
    expect((await h.runtime.waitForTurn(turn.id, 1000)).text).toBe("Done.");
    expect(h.runtime.inFlight(session.id)).toBeNull();
  });

  it("finds the turn of a prompt message", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { messageId, turn } = await h.prompt(session.id, "hello");
    expect((await h.runtime.turnOfMessage(messageId))?.id).toBe(turn.id);
    expect(await h.runtime.turnOfMessage("msg_unknown")).toBeNull();
  });
});

describe("SessionRuntime: turn outcomes", () => {
  it("ends a turn error when the worker reports one, keeping its partial reply", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    const running = await h.provider.nextTurn();
    running.write("half");
    running.fail("the model is down");
    expect(await h.runtime.waitForTurn(turn.id, 1000)).toMatchObject({
      status: "error",
      error: "the model is down",
      text: "half",
    });
    expect((await h.stores.sessions.listMessages(session.id)).at(-1)).toMatchObject({
      role: "assistant",
      text: "half",
      turnId: turn.id,
    });
  });

  it("ends a turn error with the message of a worker that throws, then runs the next turn", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const failing = await h.prompt(session.id, "throw: worker crashed");
    const next = await h.prompt(session.id, "after");
    expect(await h.runtime.waitForTurn(failing.turn.id, 1000)).toMatchObject({
      status: "error",
      error: "worker crashed",
      text: "",
    });
    expect((await h.runtime.waitForTurn(next.turn.id, 1000)).status).toBe("done");
    // No empty assistant message for a turn that wrote nothing.
    expect((await h.stores.sessions.listMessages(session.id)).map((m) => m.text)).toEqual([
      "throw: worker crashed",
      "after",
      "echo: after",
    ]);
  });

  it("ends a turn error when its session's provider is not on this relay", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession({ provider: "gone" });
    const { turn } = await h.prompt(session.id, "hello");
    const snapshot = await h.runtime.waitForTurn(turn.id, 1000);
    expect(snapshot.status).toBe("error");
    expect(snapshot.error).toContain('Provider "gone" is not available on this relay');
  });

  it("calls relay_tool as the session for the worker (io.callTool)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, 'tool: {"action":"list_sessions","relay":"this"}');
    const snapshot = await h.runtime.waitForTurn(turn.id, 1000);
    expect(h.toolCalls).toEqual([
      { sessionId: session.id, input: { action: "list_sessions", relay: "this" } },
    ]);
    expect(JSON.parse(snapshot.text)).toEqual({
      ok: true,
      echoed: { action: "list_sessions", relay: "this" },
    });
  });
});

describe("SessionRuntime: waitForTurn", () => {
  it("resolves as soon as the turn ends", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    const running = await h.provider.nextTurn();
    let result: unknown;
    const wait = h.runtime.waitForTurn(turn.id, 60_000).then((s) => {
      result = s;
      return s;
    });
    await settle();
    expect(result).toBeUndefined();
    running.finish("finished");
    expect(await wait).toMatchObject({ status: "done", text: "finished" });
    expect(h.clock.now()).toBe(session.createdAt);
  });

  it("resolves when the turn starts waiting on a question, with the question (R-RSES-02)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    const running = await h.provider.nextTurn();
    const wait = h.runtime.waitForTurn(turn.id, 60_000);
    running.ask("Deploy now?", ["Yes", "No"]).catch(() => undefined);
    const snapshot = await wait;
    expect(snapshot.status).toBe("waiting");
    expect(snapshot.pendingQuestions).toEqual([
      {
        id: expect.stringMatching(/^q_/),
        kind: "ask_user",
        text: "Deploy now?",
        options: ["Yes", "No"],
        createdAt: h.clock.now(),
      },
    ]);
  });

  it("resolves at exactly `ms` of the clock's time, not 1 ms before, with the text so far (R-WST-03)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    (await h.provider.nextTurn()).write("partial");
    let result: { status: string; text: string } | undefined;
    const wait = h.runtime.waitForTurn(turn.id, 5_000).then((s) => {
      result = s;
    });
    await h.clock.advanceAsync(4_999);
    await settle();
    expect(result).toBeUndefined();
    await h.clock.advanceAsync(1);
    await wait;
    expect(result).toMatchObject({ status: "running", text: "partial" });
  });

  it("resolves at once for a turn already ended, and with 0 ms", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const done = await h.prompt(session.id, "first");
    await h.runtime.waitForTurn(done.turn.id, 1000);
    expect((await h.runtime.waitForTurn(done.turn.id, 60_000)).status).toBe("done");

    h.provider.hold();
    const held = await h.prompt(session.id, "second");
    expect((await h.runtime.waitForTurn(held.turn.id, 0)).status).toMatch(/queued|running/);
  });

  it("resolves when the caller's signal aborts (client gone)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    await h.provider.nextTurn();
    const controller = new AbortController();
    const wait = h.runtime.waitForTurn(turn.id, 60_000, controller.signal);
    controller.abort();
    expect((await wait).status).toBe("running");
    // The wait's timer is gone: left are the runner lease's heartbeat and the turn's max-duration timer.
    expect(h.clock.pendingTimers()).toBe(2);
  });

  it("refuses an unknown turn with REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await runtimeHarness();
    await expect(h.runtime.waitForTurn("trn_unknown", 1000)).rejects.toMatchObject({
      code: "REMOTE_RELAY_NOT_FOUND",
    });
    await expect(h.runtime.snapshot("trn_unknown")).rejects.toBeInstanceOf(RelayError);
  });
});

describe("SessionRuntime: stop and kill", () => {
  it("stops the running turn, keeping what it wrote, then runs the next one (R-STOP-01)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    const next = await h.prompt(session.id, "next");
    const running = await h.provider.nextTurn();
    running.write("so far");

    expect(await h.runtime.stopTurn(session.id)).toBe(true);
    expect(await h.runtime.snapshot(turn.id)).toMatchObject({
      status: "stopped",
      text: "so far",
      error: null,
    });
    expect(await running.outcome).toEqual({ status: "stopped" });
    expect((await h.runtime.waitForTurn(next.turn.id, 1000)).status).toBe("done");
    expect(h.provider.workersStarted).toEqual([session.id]);
  });

  it("says nothing was running when no turn runs (R-STOP-02)", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    expect(await h.runtime.stopTurn(session.id)).toBe(false);
    const { turn } = await h.prompt(session.id, "hello");
    await h.runtime.waitForTurn(turn.id, 1000);
    expect(await h.runtime.stopTurn(session.id)).toBe(false);
    expect(await h.runtime.stopTurn("ses_unknown")).toBe(false);
  });

  it("ends the pending question of a stopped turn", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "ask: Proceed? | Yes | No");
    const waiting = await h.runtime.waitForTurn(turn.id, 60_000);
    const questionId = waiting.pendingQuestions[0]?.id ?? "";
    expect(await h.runtime.stopTurn(session.id)).toBe(true);
    expect((await h.stores.questions.getBlockingQuestion(questionId))?.status).toBe("ended");
    expect(await h.runtime.answerQuestion(questionId, { answer: "Yes" })).toBe(false);
    expect(await h.runtime.pendingQuestions(session.id)).toEqual([]);
  });

  it("kills the worker: the running turn ends stopped and the next turn starts a new worker", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    await h.provider.nextTurn();
    await h.runtime.killWorker(session.id);
    expect((await h.runtime.snapshot(turn.id)).status).toBe("stopped");
    expect(h.provider.workersClosed).toEqual([session.id]);

    const after = await h.prompt(session.id, "again");
    expect((await h.runtime.waitForTurn(after.turn.id, 1000)).status).toBe("done");
    expect(h.provider.workersStarted).toEqual([session.id, session.id]);
  });

  it("kills an idle session's worker without a turn", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    await h.runtime.waitForTurn((await h.prompt(session.id, "one")).turn.id, 1000);
    await h.runtime.killWorker(session.id);
    await h.runtime.killWorker("ses_unknown");
    expect(h.provider.workersClosed).toEqual([session.id]);
  });
});

describe("SessionRuntime: max turn duration (R-WST-04)", () => {
  it("stops a turn that runs longer than the max turn duration and ends it error", async () => {
    const h = await runtimeHarness({ maxTurnSeconds: 60 });
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    (await h.provider.nextTurn()).write("half done");
    await h.clock.advanceAsync(59_999);
    expect((await h.runtime.snapshot(turn.id)).status).toBe("running");
    await h.clock.advanceAsync(1);
    await settle();
    expect(await h.runtime.snapshot(turn.id)).toMatchObject({
      status: "error",
      error: "The turn ran longer than the relay's max turn duration (60 s) and was stopped.",
      text: "half done",
    });
  });

  it("counts the time a turn waits on a question", async () => {
    const h = await runtimeHarness({ maxTurnSeconds: 120 });
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "ask: Which region? | eu | us");
    expect((await h.runtime.waitForTurn(turn.id, 1000)).status).toBe("waiting");
    await h.clock.advanceAsync(120_000);
    await settle();
    expect(await h.runtime.snapshot(turn.id)).toMatchObject({ status: "error", pendingQuestions: [] });
    expect(await h.runtime.pendingQuestions(session.id)).toEqual([]);
  });

  it("reads the owner setting maxTurnSeconds when no option is given", async () => {
    const h = await runtimeHarness();
    await h.stores.settings.setSetting("owner.settings", { maxTurnSeconds: 90 });
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    await h.provider.nextTurn();
    await h.clock.advanceAsync(90_000);
    await settle();
    expect((await h.runtime.snapshot(turn.id)).error).toContain("(90 s)");
  });
});

describe("SessionRuntime: blocking questions", () => {
  it("waits on an ask_user card, then goes on with the answer", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "ask: Deploy to production? | Deploy | Wait");
    const waiting = await h.runtime.waitForTurn(turn.id, 60_000);
    expect(waiting.status).toBe("waiting");
    const [question] = await h.runtime.pendingQuestions(session.id);
    expect(question).toMatchObject({
      kind: "ask_user",
      text: "Deploy to production?",
      options: ["Deploy", "Wait"],
    });
    expect(await h.stores.questions.getBlockingQuestion(question?.id ?? "")).toMatchObject({
      sessionId: session.id,
      turnId: turn.id,
      status: "pending",
    });

    expect(
      await h.runtime.answerQuestion(question?.id ?? "", { answer: "Deploy", choices: ["Deploy"] }),
    ).toBe(true);
    expect(await h.runtime.waitForTurn(turn.id, 60_000)).toMatchObject({
      status: "done",
      text: "answer: Deploy",
    });
    expect(await h.runtime.answerQuestion(question?.id ?? "", { answer: "Wait" })).toBe(false);
    expect(await h.runtime.answerQuestion("q_unknown", { answer: "Wait" })).toBe(false);
    expect(await h.runtime.pendingQuestions(session.id)).toEqual([]);
  });
});

describe("SessionRuntime: external sessions", () => {
  it("refuses prompts for a session driven from outside the relay, changing nothing", async () => {
    const h = await runtimeHarness({ extraProviders: [externalProvider] });
    const session = await h.createSession({ provider: "outside" });
    const refused = h.prompt(session.id, "hello");
    await expect(refused).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
      message: expect.stringContaining(`Session ${session.id} is driven from outside the relay`),
    });
    expect(await h.stores.sessions.listMessages(session.id)).toEqual([]);
    expect(await h.stores.sessions.listActiveTurns()).toEqual([]);
  });

  it("refuses a prompt for an unknown session with REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await runtimeHarness();
    await expect(h.prompt("ses_unknown", "hello")).rejects.toMatchObject({ code: "REMOTE_RELAY_NOT_FOUND" });
  });
});

describe("SessionRuntime: restart", () => {
  it("ends the last process's running turns as error, ends their questions, and runs the queued turns", async () => {
    const stores = await openTestStores();
    const first = await runtimeHarness({ stores });
    const a = await first.createSession({ id: "ses_a" });
    const b = await first.createSession({ id: "ses_b" });
    const asking = await first.prompt(a.id, "ask: Continue? | Yes | No");
    const queued = await first.prompt(a.id, "after the restart");
    const running = await first.prompt(b.id, "hold");
    await first.runtime.waitForTurn(asking.turn.id, 1000);
    await first.provider.nextTurn();
    await first.provider.nextTurn();
    const [question] = await first.runtime.pendingQuestions(a.id);
    await first.runtime.close();
    expect((await stores.sessions.getTurn(asking.turn.id))?.status).toBe("running");

    // A new process's ids never meet the last one's (the stores refuse a key already stored).
    const second = await runtimeHarness({ stores, ids: taggedIds("b") });
    await second.runtime.start();
    expect(await second.runtime.snapshot(asking.turn.id)).toMatchObject({
      status: "error",
      error: RELAY_RESTARTED_MESSAGE,
    });
    expect((await second.runtime.snapshot(running.turn.id)).error).toBe(
      "The relay restarted while this turn was running.",
    );
    expect((await stores.questions.getBlockingQuestion(question?.id ?? ""))?.status).toBe("ended");
    expect(await second.runtime.waitForTurn(queued.turn.id, 1000)).toMatchObject({
      status: "done",
      text: "echo: after the restart",
    });
    expect((await stores.sessions.getSession(a.id))?.state).toBe("idle");
    expect((await stores.sessions.getSession(b.id))?.state).toBe("idle");
  });

  it("ends pending waits with the snapshot of the moment on close", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession();
    const { turn } = await h.prompt(session.id, "hold");
    await h.provider.nextTurn();
    const wait = h.runtime.waitForTurn(turn.id, 60_000);
    await settle();
    await h.runtime.close();
    expect((await wait).status).toBe("running");
    expect(h.clock.pendingTimers()).toBe(0);
    expect(h.provider.workersClosed).toEqual([session.id]);
  });
});
