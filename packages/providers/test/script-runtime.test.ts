import { createSequentialIdGenerator, FakeClock } from "@oar/core/testing";
import { createSessionRuntime, type SessionRuntime } from "@oar/engine";
import { createMemoryEngineStores } from "@oar/engine/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createExternalProvider, createScriptProvider } from "../src";

/** Lets the runtime's promise callbacks and store calls run; no time passes on the FakeClock. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

describe("script provider under the session runtime", () => {
  let runtime: SessionRuntime | undefined;
  afterEach(async () => {
    await runtime?.close();
  });

  const start = async () => {
    const clock = new FakeClock();
    const stores = createMemoryEngineStores();
    const toolCalls: unknown[] = [];
    runtime = createSessionRuntime({
      stores,
      providers: [createScriptProvider(), createExternalProvider()],
      clock,
      ids: createSequentialIdGenerator(),
      callTool: async (sessionId, input) => {
        toolCalls.push({ sessionId, input });
        return { ok: true, sessions: [] };
      },
    });
    await runtime.start();
    const newSession = (id: string, provider = "script") =>
      stores.sessions.createSession({ id, title: id, provider, model: "script-1", createdAt: clock.now() });
    return { runtime, clock, stores, toolCalls, newSession };
  };

  it("runs a script turn with a question, a tool call and a sleep to its reply", async () => {
    const { runtime, clock, stores, toolCalls, newSession } = await start();
    await newSession("ses_1");
    const { turn } = await runtime.enqueuePrompt({
      sessionId: "ses_1",
      text: 'Checking\n!ask Go on? | yes | no\n!tool {"action":"list_sessions","relay":"this"}\n!sleep 500',
      origin: { kind: "owner" },
    });

    const waiting = await runtime.waitForTurn(turn.id, 60_000);
    expect(waiting).toMatchObject({ status: "waiting", text: "echo: Checking" });
    expect(await runtime.answerQuestion(waiting.pendingQuestions[0]?.id ?? "", { answer: "yes" })).toBe(true);

    await settle();
    expect((await runtime.snapshot(turn.id)).status).toBe("running");
    expect(toolCalls).toEqual([{ sessionId: "ses_1", input: { action: "list_sessions", relay: "this" } }]);
    await clock.advanceAsync(500);
    const done = await runtime.waitForTurn(turn.id, 60_000);
    expect(done).toMatchObject({
      status: "done",
      text: 'echo: Checking\nanswer: yes\n{"ok":true,"sessions":[]}',
    });
    expect((await stores.sessions.listMessages("ses_1")).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("stops a turn during !sleep (R-STOP-01)", async () => {
    const { runtime, newSession } = await start();
    await newSession("ses_1");
    const { turn } = await runtime.enqueuePrompt({
      sessionId: "ses_1",
      text: "!reply working\n!sleep 60000",
      origin: { kind: "owner" },
    });
    await settle();
    expect(await runtime.snapshot(turn.id)).toMatchObject({ status: "running", text: "working" });
    expect(await runtime.stopTurn("ses_1")).toBe(true);
    expect(await runtime.snapshot(turn.id)).toMatchObject({ status: "stopped", text: "working" });
  });

  it("refuses prompts to an external session", async () => {
    const { runtime, newSession } = await start();
    await newSession("ses_ext", "external");
    await expect(
      runtime.enqueuePrompt({ sessionId: "ses_ext", text: "hi", origin: { kind: "owner" } }),
    ).rejects.toMatchObject({ code: "REMOTE_RELAY_INVALID_INPUT" });
  });
});
