import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it, vi } from "vitest";
import { hang, text, toolUse } from "../../src/testing";
import { CLAUDE_TEST_TIMEOUT_MS, createClaudeTestbed, startApiWorker, turnOf } from "./claude-testbed";

const BASH_ALLOWED = { providerState: { allowedTools: ["Bash"] } };

describe("claude-api against the real CLI: background shells", { timeout: CLAUDE_TEST_TIMEOUT_MS }, () => {
  it("keeps the turn going until the CLI has woken the model with the background shell's end", async () => {
    const bed = await createClaudeTestbed();
    // The shell ends when the test says so, not after some time.
    const waitForGo = { command: "while [ ! -f go ]; do sleep 0.05; done", run_in_background: true };
    bed.fake.enqueue(
      toolUse("Bash", { ...waitForGo, description: "Wait for go" }),
      text("Started the wait."),
      text("The wait is over."),
    );
    const worker = startApiWorker(bed, { session: BASH_ALLOWED });
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    const outcome = worker.runTurn(turnOf("Wait for go in the background.", bed.cwd), io);
    // Once the first answer is out, the CLI has ended that turn and only waits for the shell.
    await vi.waitFor(() => expect(io.streamed.join("")).toContain("Started the wait."), { timeout: 30_000 });

    writeFileSync(join(bed.cwd, "go"), "");

    expect(await outcome).toEqual({ status: "done", reply: "Started the wait.\nThe wait is over." });
    expect(bed.fake.messageRequests).toHaveLength(3);
    // Two result lines: tokens add up; the cost is the CLI's running total, all of it new in a first turn.
    expect(io.usages).toEqual([{ costUsd: expect.any(Number), inputTokens: 300, outputTokens: 60 }]);
  });

  it("a stop also ends the shell commands the CLI started in the background", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(
      toolUse("Bash", {
        command: "sleep 600",
        description: "Wait in the background",
        run_in_background: true,
      }),
      hang(),
    );
    const worker = startApiWorker(bed, { session: BASH_ALLOWED });
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    const outcome = worker.runTurn(turnOf("Wait in the background.", bed.cwd), io);
    await bed.fake.hanging();
    // Seen once on a loaded machine: the CLI asked the model again before its shell showed.
    await vi.waitFor(() => expect(bed.livingProcesses().length).toBeGreaterThan(1), { timeout: 10_000 });

    io.controller.abort();

    expect(await outcome).toMatchObject({ status: "stopped" });
    expect(bed.livingProcesses()).toEqual([]);
  });
});
