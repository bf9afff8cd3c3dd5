import { existsSync } from "node:fs";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { conversationOf, text, toolResultsOf, toolUse } from "../../src/testing";
import { CLAUDE_TEST_TIMEOUT_MS, createClaudeTestbed, startApiWorker, turnOf } from "./claude-testbed";

// A shell command that changes files: in `ask` mode (the CLI's `default`) it needs permission.
const TOUCH = { command: "touch marker.txt", description: "Create a marker file" };
const CARD = {
  text: "Claude Code asked to use Bash (touch marker.txt). Allow it for this session?",
  options: ["Allow", "Deny"],
};

describe("claude-api against the real CLI: tools the CLI may not run alone", {
  timeout: CLAUDE_TEST_TIMEOUT_MS,
}, () => {
  it("asks the owner; on Allow it resumes the CLI with the tool allowed, and the tool runs", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(
      toolUse("Bash", TOUCH),
      text("I was not allowed to create the marker."),
      toolUse("Bash", TOUCH),
      text("Created marker.txt."),
    );
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({ clock: new FakeClock(), answer: { answer: "Allow" } });

    const outcome = await worker.runTurn(turnOf("Create marker.txt.", bed.cwd, { mode: "ask" }), io);

    expect(io.questions).toEqual([CARD]);
    expect(outcome).toEqual({
      status: "done",
      reply: "I was not allowed to create the marker.\nCreated marker.txt.",
    });
    expect(existsSync(join(bed.cwd, "marker.txt"))).toBe(true);
    expect(io.savedStates.at(-1)).toEqual({
      claudeSessionId: expect.any(String),
      allowedTools: ["Bash"],
      conversationCost: { claudeSessionId: expect.any(String), totalUsd: expect.any(Number) },
    });
    // The second run went on with the same conversation, told what the owner allowed.
    expect(conversationOf(bed.fake.messageRequests[2])).toContain("Create marker.txt.");
    expect(conversationOf(bed.fake.messageRequests[2])).toContain("The owner allowed Bash; go on.");
    expect(toolResultsOf(bed.fake.messageRequests[3])[0]?.is_error).not.toBe(true);
  });

  it("on Deny ends the turn with the reply as it is and a line saying what was denied", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(toolUse("Bash", TOUCH), text("I was not allowed to create the marker."));
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({ clock: new FakeClock(), answer: { answer: "Deny" } });

    const outcome = await worker.runTurn(turnOf("Create marker.txt.", bed.cwd, { mode: "ask" }), io);

    expect(io.questions).toEqual([CARD]);
    expect(outcome).toEqual({
      status: "done",
      reply: "I was not allowed to create the marker.\nDenied by the owner: Bash (touch marker.txt).",
    });
    expect(existsSync(join(bed.cwd, "marker.txt"))).toBe(false);
    expect(bed.fake.messageRequests).toHaveLength(2);
    expect(toolResultsOf(bed.fake.messageRequests[1])[0]?.is_error).toBe(true);
  });

  it("asks nothing in plan mode: a refused tool is only reported", async () => {
    const bed = await createClaudeTestbed();
    const file = join(bed.cwd, "plan.md");
    bed.fake.enqueue(toolUse("Write", { file_path: file, content: "# Plan" }), text("Here is the plan."));
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({ clock: new FakeClock(), answer: { answer: "Allow" } });

    const outcome = await worker.runTurn(turnOf("Plan the work.", bed.cwd, { mode: "plan" }), io);

    expect(outcome).toEqual({
      status: "done",
      reply: `Here is the plan.\nNot run in plan mode: Write (${file}).`,
    });
    expect(io.questions).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it("runs a tool the owner allowed in an earlier turn without asking again", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(toolUse("Bash", TOUCH), text("Created marker.txt."));
    const worker = startApiWorker(bed, { session: { providerState: { allowedTools: ["Bash"] } } });
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await worker.runTurn(turnOf("Create marker.txt.", bed.cwd, { mode: "ask" }), io);

    expect(outcome).toEqual({ status: "done", reply: "Created marker.txt." });
    expect(io.questions).toEqual([]);
    expect(existsSync(join(bed.cwd, "marker.txt"))).toBe(true);
  });
});
