import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { createCommandProvider } from "../../src";
import {
  expectProcessGone,
  RELAY_ENV,
  SESSION,
  signalZeroError,
  startTurn,
  streamedPids,
  TEST_KILL_GRACE_MS,
} from "./command-fixtures";

// The command prints its own pid and that of a background grandchild, then waits on it: every
// way a turn ends must take both with it.
const WITH_GRANDCHILD = 'echo started; sleep 1000 & echo "$$ $!"; wait';

describe("command provider: no process outlives its turn", { timeout: 30_000 }, () => {
  it("kills the process group past timeoutSeconds, on the turn's clock", async () => {
    const run = startTurn({ command: ["sh", "-c", WITH_GRANDCHILD], models: ["m1"], timeoutSeconds: 5 });
    const [shell, grandchild] = await streamedPids(run.io.streamed);
    let settled = false;
    void run.outcome.then(() => {
      settled = true;
    });
    await run.clock.advanceAsync(4_999);
    expect(settled).toBe(false);
    expect(signalZeroError(shell as number)).toBeUndefined();
    expect(signalZeroError(grandchild as number)).toBeUndefined();
    await run.clock.advanceAsync(1);
    const outcome = await run.outcome;
    expect(outcome).toEqual({
      status: "error",
      error: "`sh` ran longer than its timeout (5 s) and was killed.",
      reply: `started\n${shell} ${grandchild}`,
    });
    await expectProcessGone(shell as number);
    await expectProcessGone(grandchild as number);
    expect(run.clock.pendingTimers()).toBe(0);
  });

  it("ends stopped with the partial reply when the turn is stopped, and kills the group", async () => {
    const run = startTurn({ command: ["sh", "-c", WITH_GRANDCHILD], models: ["m1"] });
    const [shell, grandchild] = await streamedPids(run.io.streamed);
    run.io.controller.abort();
    expect(await run.outcome).toEqual({ status: "stopped", reply: `started\n${shell} ${grandchild}` });
    await expectProcessGone(shell as number);
    await expectProcessGone(grandchild as number);
  });

  it("sends SIGKILL to a group that ignores SIGTERM, after the grace", async () => {
    const run = startTurn({
      command: ["sh", "-c", `trap '' TERM; ${WITH_GRANDCHILD}`],
      models: ["m1"],
      timeoutSeconds: 60,
    });
    const [shell, grandchild] = await streamedPids(run.io.streamed);
    const stoppedAt = performance.now();
    run.io.controller.abort();
    const outcome = await run.outcome;
    expect(outcome.status).toBe("stopped");
    expect(performance.now() - stoppedAt).toBeGreaterThanOrEqual(TEST_KILL_GRACE_MS - 5);
    await expectProcessGone(shell as number);
    await expectProcessGone(grandchild as number);
    expect(run.clock.pendingTimers()).toBe(0);
  });

  it("kills what the command left running in the background when it exits 0", async () => {
    const run = startTurn({ command: ["sh", "-c", 'sleep 1000 & echo "$$ $!"'], models: ["m1"] });
    const outcome = await run.outcome;
    expect(outcome.status).toBe("done");
    const [shell, grandchild] = await streamedPids(run.io.streamed);
    expect(outcome).toEqual({ status: "done", reply: `${shell} ${grandchild}` });
    await expectProcessGone(grandchild as number);
  });

  it("close() during a turn kills its group and resolves once it is gone; the worker then takes no turns", async () => {
    const provider = createCommandProvider(
      "probe",
      { command: ["sh", "-c", WITH_GRANDCHILD], models: ["m1"] },
      { env: RELAY_ENV, killGraceMs: TEST_KILL_GRACE_MS },
    );
    const worker = provider.startWorker(SESSION);
    expect(worker).not.toBeNull();
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    const turn = {
      turnId: "trn_1",
      prompt: "hi",
      model: "m1",
      effort: null,
      mode: "agent" as const,
      cwd: null,
    };
    const outcome = worker?.runTurn(turn, io);
    const [shell, grandchild] = await streamedPids(io.streamed);
    await worker?.close();
    expect(await outcome).toEqual({ status: "stopped", reply: `started\n${shell} ${grandchild}` });
    await expectProcessGone(shell as number);
    await expectProcessGone(grandchild as number);
    expect(await worker?.runTurn(turn, createRecordingTurnIO({ clock: new FakeClock() }))).toEqual({
      status: "error",
      error: "The worker of provider probe was closed.",
    });
  });

  it("close() without a running turn resolves at once", async () => {
    const worker = createCommandProvider(
      "probe",
      { command: ["true"], models: ["m1"] },
      { env: {} },
    ).startWorker(SESSION);
    await expect(worker?.close()).resolves.toBeUndefined();
  });

  it("starts nothing when the turn is stopped before the command starts", async () => {
    const clock = new FakeClock();
    const io = createRecordingTurnIO({ clock });
    io.controller.abort();
    const worker = createCommandProvider(
      "probe",
      { command: ["sh", "-c", "echo ran"], models: ["m1"] },
      { env: RELAY_ENV },
    ).startWorker(SESSION);
    expect(
      await worker?.runTurn(
        { turnId: "t", prompt: "p", model: "m1", effort: null, mode: "agent", cwd: null },
        io,
      ),
    ).toEqual({
      status: "stopped",
    });
    expect(io.streamed).toEqual([]);
  });
});
