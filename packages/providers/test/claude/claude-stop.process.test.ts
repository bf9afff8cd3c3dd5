import { readFileSync } from "node:fs";
import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { hang } from "../../src/testing";
import { CLAUDE_TEST_TIMEOUT_MS, createClaudeTestbed, startApiWorker, turnOf } from "./claude-testbed";

/** The process group of `pid`: the fifth field of /proc/PID/stat, after the command in parentheses. */
function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

describe("claude-api against the real CLI: stops and crashes", { timeout: CLAUDE_TEST_TIMEOUT_MS }, () => {
  it("ends the turn stopped when the turn is aborted while the model is busy, and leaves no process", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(hang());
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    const outcome = worker.runTurn(turnOf("Think for a long time.", bed.cwd), io);
    await bed.fake.hanging();
    expect(bed.livingProcesses()).not.toEqual([]);

    io.controller.abort();

    expect(await outcome).toEqual({ status: "stopped" });
    expect(bed.livingProcesses()).toEqual([]);
  });

  it("stops a running turn when the worker is closed (Kill session, relay shutdown)", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(hang());
    const worker = startApiWorker(bed);
    const outcome = worker.runTurn(
      turnOf("Think for a long time.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    await bed.fake.hanging();

    await worker.close();

    expect(await outcome).toEqual({ status: "stopped" });
    expect(bed.livingProcesses()).toEqual([]);
  });

  it("ends the turn in error, saying so, when the CLI dies in the middle of a turn", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(hang());
    const worker = startApiWorker(bed);
    const outcome = worker.runTurn(
      turnOf("Think for a long time.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    await bed.fake.hanging();
    const [cli] = bed.livingProcesses();
    if (cli === undefined) {
      throw new Error("the CLI is not running");
    }

    process.kill(-processGroupOf(cli), "SIGKILL");

    const ended = await outcome;
    expect(ended.status).toBe("error");
    expect(ended.status === "error" && ended.error).toMatch(
      /^Claude Code was killed by SIGKILL before it finished the turn \(no result line\)\./,
    );
  });
});
