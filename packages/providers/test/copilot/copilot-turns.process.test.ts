import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { bodyOf, conversationOf, FAKE_INPUT_TOKENS, FAKE_OUTPUT_TOKENS, text } from "../../src/testing";
import {
  BYOK_MODEL,
  COPILOT_TEST_TIMEOUT_MS,
  copilotProvider,
  copilotTurn,
  createCopilotTestbed,
  startWorker,
} from "./copilot-testbed";

describe("copilot against the real CLI (ACP, offline BYOK)", { timeout: COPILOT_TEST_TIMEOUT_MS }, () => {
  it("streams the first turn's reply, keeps the agent's session id and counts its tokens", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(text("Hello from the fake model."));
    const worker = startWorker(copilotProvider(bed), bed);
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(copilotTurn("Say hello.", bed.cwd), io);

    expect(outcome).toEqual({ status: "done", reply: "Hello from the fake model." });
    expect(io.streamed.join("")).toBe("Hello from the fake model.");
    expect(io.savedStates).toEqual([{ acpSessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(io.usages).toEqual([{ inputTokens: FAKE_INPUT_TOKENS, outputTokens: FAKE_OUTPUT_TOKENS }]);
    expect(bodyOf(bed.fake.messageRequests[0]).model).toBe(BYOK_MODEL);
    expect(conversationOf(bed.fake.messageRequests[0])).toContain("Say hello.");
  });

  it("keeps one agent process between turns: the second turn continues the conversation and counts only its own tokens", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(text("First answer."), text("Second answer."));
    const worker = startWorker(copilotProvider(bed), bed);
    const first = createRecordingTurnIO({ clock: new FakeClock() });
    await worker.runTurn(copilotTurn("First question.", bed.cwd), first);
    const pids = bed.livingProcesses();
    const second = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(copilotTurn("Second question.", bed.cwd), second);

    expect(outcome).toEqual({ status: "done", reply: "Second answer." });
    expect(bed.livingProcesses()).toEqual(pids);
    const seen = conversationOf(bed.fake.messageRequests[1]);
    expect(seen).toContain("First question.");
    expect(seen).toContain("Second question.");
    expect(second.savedStates).toEqual([]);
    expect(second.usages).toEqual([{ inputTokens: FAKE_INPUT_TOKENS, outputTokens: FAKE_OUTPUT_TOKENS }]);
  });

  it("reopens the conversation with session/load in a new worker (a relay restart), without replaying it", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(text("Remembered: blue."), text("It was blue."));
    const provider = copilotProvider(bed);
    const before = createRecordingTurnIO({ clock: new FakeClock() });
    const first = startWorker(provider, bed);
    await first.runTurn(copilotTurn("My colour is blue.", bed.cwd), before);
    await first.close();
    expect(bed.livingProcesses()).toEqual([]);
    const [state] = before.savedStates;

    const after = createRecordingTurnIO({ clock: new FakeClock() });
    const outcome = await startWorker(provider, bed, { providerState: state ?? null }).runTurn(
      copilotTurn("What was my colour?", bed.cwd),
      after,
    );

    expect(outcome).toEqual({ status: "done", reply: "It was blue." });
    expect(after.streamed.join("")).toBe("It was blue.");
    expect(after.savedStates).toEqual([]);
    const seen = conversationOf(bed.fake.messageRequests[1]);
    expect(seen).toContain("My colour is blue.");
    expect(after.usages).toEqual([{ inputTokens: FAKE_INPUT_TOKENS, outputTokens: FAKE_OUTPUT_TOKENS }]);
  });

  it("starts a new conversation, and says so, when the agent no longer has the kept one", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(text("Fresh start."));
    const gone = "00000000-0000-4000-8000-000000000000";
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await startWorker(copilotProvider(bed), bed, {
      providerState: { acpSessionId: gone },
    }).runTurn(copilotTurn("Hello again.", bed.cwd), io);

    expect(outcome.status).toBe("done");
    const warning = `⚠️ Copilot no longer has this session's conversation (${gone}): it could not reopen it:`;
    expect(outcome.status === "done" && outcome.reply.startsWith(warning)).toBe(true);
    expect(
      outcome.status === "done" && outcome.reply.endsWith("without the earlier messages.\nFresh start."),
    ).toBe(true);
    expect(io.savedStates).toEqual([{ acpSessionId: expect.not.stringMatching(gone) }]);
  });
});
