import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { acpProviderSource } from "../../src";
import { bodyOf, conversationOf, hang, text } from "../../src/testing";
import {
  BYOK_MODEL,
  COPILOT_TEST_TIMEOUT_MS,
  copilotProvider,
  copilotTurn,
  createCopilotTestbed,
  pinnedCopilotBinary,
  startWorker,
} from "./copilot-testbed";

describe("copilot against the real CLI: stop, crash, timeout, model", {
  timeout: COPILOT_TEST_TIMEOUT_MS,
}, () => {
  it("a stop sends session/cancel: the turn ends stopped at once and the same agent takes the next turn", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(hang());
    const worker = startWorker(copilotProvider(bed), bed);
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    const running = worker.runTurn(copilotTurn("Think for ever.", bed.cwd), io);
    await bed.fake.hanging();
    const pids = bed.livingProcesses();

    const startedAt = Date.now();
    io.controller.abort();
    const outcome = await running;

    expect(outcome).toEqual({ status: "stopped" });
    // Well within the cancel grace (3 s): the agent ended the prompt itself, it was not killed.
    expect(Date.now() - startedAt).toBeLessThan(2_500);
    expect(bed.livingProcesses()).toEqual(pids);
    bed.fake.enqueue(text("Back."));
    const next = await worker.runTurn(
      copilotTurn("Hello?", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    expect(next).toEqual({ status: "done", reply: "Back." });
    expect(bed.livingProcesses()).toEqual(pids);
  });

  it("an agent killed mid-turn fails the turn with how it ended; the next turn starts a new process and reopens the conversation", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(text("Noted: 42."), hang());
    const worker = startWorker(copilotProvider(bed), bed);
    await worker.runTurn(
      copilotTurn("Remember 42.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    const running = worker.runTurn(
      copilotTurn("Think for ever.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    await bed.fake.hanging();

    for (const pid of bed.livingProcesses()) {
      process.kill(pid, "SIGKILL");
    }
    const outcome = await running;

    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.error).toMatch(
      // npm's loader is killed, or sees its native CLI killed first and exits on its own.
      /^Copilot stopped during the turn: `.+` (was killed by SIGKILL|exited with code \d+)\./,
    );
    bed.fake.enqueue(text("It was 42."));
    const next = await worker.runTurn(
      copilotTurn("What number?", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    expect(next).toEqual({ status: "done", reply: "It was 42." });
    expect(conversationOf(bed.fake.messageRequests.at(-1))).toContain("Remember 42.");
  });

  it("past the definition's timeoutSeconds the prompt is cancelled and the turn fails saying so", async () => {
    const bed = await createCopilotTestbed();
    const [provider] = acpProviderSource({ env: bed.env }).providers({
      slow: {
        acp: [pinnedCopilotBinary(), "--acp", "--model", "{model}"],
        models: [BYOK_MODEL],
        timeoutSeconds: 30,
        label: "Slow Copilot",
      },
    });
    if (provider === undefined) {
      throw new Error("the definition makes a provider");
    }
    bed.fake.enqueue(hang());
    const clock = new FakeClock();
    const running = startWorker(provider, bed).runTurn(
      copilotTurn("Think for ever.", bed.cwd),
      createRecordingTurnIO({ clock }),
    );
    await bed.fake.hanging();

    clock.advance(30_000);

    expect(await running).toEqual({
      status: "error",
      error: "Slow Copilot ran longer than its timeout (30 s): the turn was cancelled.",
    });
  });

  it("runs the session's model and effort (--model, --reasoning-effort): a model change restarts the agent on the same conversation", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(text("On 5.4."), text("On haiku."));
    const worker = startWorker(copilotProvider(bed), bed, { model: "gpt-5.4" });
    await worker.runTurn(
      copilotTurn("First.", bed.cwd, { model: "gpt-5.4", effort: "high" }),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    const outcome = await worker.runTurn(
      copilotTurn("Second.", bed.cwd, { model: "claude-haiku-4.5" }),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome).toEqual({ status: "done", reply: "On haiku." });
    expect(bed.fake.messageRequests.map((request) => bodyOf(request).model)).toEqual([
      "gpt-5.4",
      "claude-haiku-4.5",
    ]);
    expect(conversationOf(bed.fake.messageRequests[1])).toContain("First.");
  });
});
