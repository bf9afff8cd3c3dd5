import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { bodyOf, conversationOf, error, text } from "../../src/testing";
import { CLAUDE_TEST_TIMEOUT_MS, createClaudeTestbed, startApiWorker, turnOf } from "./claude-testbed";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("claude-api against the real CLI: turns", { timeout: CLAUDE_TEST_TIMEOUT_MS }, () => {
  it("answers a first turn with the model's text, keeps the CLI's session id and reports cost and tokens", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("Hello from the fake model."));
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(turnOf("Say hello in one line.", bed.cwd), io);

    expect(outcome).toEqual({ status: "done", reply: "Hello from the fake model." });
    expect(io.streamed.join("")).toBe("Hello from the fake model.");
    expect(io.usages).toHaveLength(1);
    expect(io.usages[0]).toMatchObject({ inputTokens: 100, outputTokens: 20 });
    expect(io.usages[0]?.costUsd).toBeGreaterThan(0);
    const claudeSessionId = expect.stringMatching(UUID);
    // The CLI's running total is kept with its conversation, so the next run counts only what it adds.
    expect(io.savedStates).toEqual([
      {
        claudeSessionId,
        allowedTools: [],
        conversationCost: { claudeSessionId, totalUsd: io.usages[0]?.costUsd },
      },
    ]);
    expect(bed.fake.messageRequests).toHaveLength(1);
    expect(bodyOf(bed.fake.messageRequests[0]).model).toBe("claude-sonnet-5-5");
    expect(conversationOf(bed.fake.messageRequests[0])).toContain("Say hello in one line.");
    expect(bed.fake.unscripted).toEqual([]);
    expect(bed.fake.unknown).toEqual([]);
  });

  it("passes the turn's effort to the CLI, which asks the model for it", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("Thought hard."));
    const worker = startApiWorker(bed);

    await worker.runTurn(
      turnOf("Think.", bed.cwd, { effort: "high" }),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(bed.fake.messageRequests[0]?.body).toMatchObject({ output_config: { effort: "high" } });
  });

  it("resumes the conversation: the second turn's request carries the first turn's messages", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("The first answer."), text("The second answer."));
    const worker = startApiWorker(bed);
    const first = createRecordingTurnIO({ clock: new FakeClock() });
    await worker.runTurn(turnOf("First question: pick a colour.", bed.cwd), first);
    const second = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(turnOf("Second question: why that one?", bed.cwd), second);

    expect(outcome).toEqual({ status: "done", reply: "The second answer." });
    const conversation = conversationOf(bed.fake.messageRequests[1]);
    expect(conversation).toContain("First question: pick a colour.");
    expect(conversation).toContain("The first answer.");
    expect(conversation).toContain("Second question: why that one?");
    // Resuming keeps the CLI's session: only its new running total is saved.
    const claudeSessionId = (first.savedStates[0] as { claudeSessionId: string }).claudeSessionId;
    expect(second.savedStates).toEqual([
      {
        claudeSessionId,
        allowedTools: [],
        conversationCost: { claudeSessionId, totalUsd: expect.any(Number) },
      },
    ]);
  });

  it("resumes from the saved provider state in a new worker (a relay restart)", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("Remembered: 42."), text("It was 42."));
    const first = createRecordingTurnIO({ clock: new FakeClock() });
    await startApiWorker(bed).runTurn(turnOf("Remember the number 42.", bed.cwd), first);
    const worker = startApiWorker(bed, { session: { providerState: first.savedStates[0] ?? null } });

    const outcome = await worker.runTurn(
      turnOf("Which number?", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome).toEqual({ status: "done", reply: "It was 42." });
    expect(conversationOf(bed.fake.messageRequests[1])).toContain("Remember the number 42.");
  });

  it("starts a new conversation, and says so, when the CLI no longer has the one to resume", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("Starting afresh."));
    const gone = "0b5c2c7e-1111-4222-8333-944455556666";
    const worker = startApiWorker(bed, { session: { providerState: { claudeSessionId: gone } } });
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(turnOf("Go on.", bed.cwd), io);

    const warning = `⚠️ Claude Code no longer has this session's conversation (${gone}), so this turn starts a new one without the earlier messages.`;
    expect(outcome).toEqual({ status: "done", reply: `${warning}\nStarting afresh.` });
    expect(io.streamed.join("")).toBe(`${warning}\nStarting afresh.`);
    const claudeSessionId = expect.stringMatching(UUID);
    expect(io.savedStates.at(-1)).toEqual({
      claudeSessionId,
      allowedTools: [],
      conversationCost: { claudeSessionId, totalUsd: expect.any(Number) },
    });
    expect((io.savedStates.at(-1) as { claudeSessionId: string }).claudeSessionId).not.toBe(gone);
  });

  it("ends the turn in error with the API's message when the API refuses the request", async () => {
    const bed = await createClaudeTestbed();
    // On a 400 the CLI tries twice more, each time without its newest beta header.
    const refusal = error(400, "invalid_request_error", "The fake API refuses this request.");
    bed.fake.enqueue(refusal, refusal, refusal);
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(turnOf("Hello?", bed.cwd), io);

    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.error).toContain("The fake API refuses this request.");
    expect(outcome.status === "error" && outcome.error).toMatch(
      /^Claude Code reported an error: API Error: 400/,
    );
    // The CLI's made-up assistant message that repeats the error is not reply text.
    expect(io.streamed).toEqual([]);
    expect(bed.fake.unscripted).toEqual([]);
  });
});
