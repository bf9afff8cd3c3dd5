import type { IdGenerator } from "@oar/core";
import type { FakeClock } from "@oar/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import type { EngineStores } from "../../src";
import type { RunnerProcess } from "../../src/ports/lease-store";
import { createSessionRuntime } from "../../src/runtime/create-session-runtime";
import { RUNNER_GONE_MESSAGE } from "../../src/runtime/recovery";
import { RUNNER_HEARTBEAT_MS, RUNNER_LEASE_TTL_MS } from "../../src/runtime/runner-lease";
import { createTestProvider, openTestStores } from "../../src/testing";
import { passInSteps, settle, T0, taggedIds, testClock } from "./harness";

/** The pids running on each host, as the runtimes' liveness check sees them. */
function hosts(running: Record<string, number[]>) {
  return (host: string, pid: number): RunnerProcess => ({
    host,
    pid,
    isAlive: (other) => (running[host] ?? []).includes(other),
  });
}

/** A started relay process's runtime on shared stores, naming itself `runnerProcess`. */
async function relayProcess(input: {
  readonly stores: EngineStores;
  readonly clock: FakeClock;
  readonly ids: IdGenerator;
  readonly runnerProcess: RunnerProcess;
}) {
  const provider = createTestProvider();
  const runtime = createSessionRuntime({
    stores: input.stores,
    providers: [provider],
    clock: input.clock,
    ids: input.ids,
    callTool: async () => ({ ok: true }),
    sharedStore: true,
    runnerProcess: input.runnerProcess,
  });
  onTestFinished(() => runtime.close());
  await runtime.start();
  const prompt = (sessionId: string, text: string) =>
    runtime.enqueuePrompt({ sessionId, text, origin: { kind: "owner" } });
  return { provider, runtime, prompt };
}

/**
 * The relay process before: its turn in ses_a runs (held) with a prompt queued behind it, and its
 * clock stands still from then on, so it never renews its lease (killed: it does nothing more).
 */
async function deadProcessWithTurn(stores: EngineStores, runnerProcess: RunnerProcess) {
  const first = await relayProcess({ stores, clock: testClock(T0), ids: taggedIds("a"), runnerProcess });
  await stores.sessions.createSession({
    id: "ses_a",
    title: "Long one",
    provider: "test",
    model: "test-1",
    createdAt: T0,
  });
  first.provider.hold();
  const { turn } = await first.prompt("ses_a", "long work");
  await first.provider.nextTurn();
  const queued = await first.prompt("ses_a", "next");
  return { turn, queued: queued.turn };
}

describe("a relay process of this host that is gone: its turns end at once, not at its lease's expiry (DESIGN §9, issue 27 item 5)", () => {
  it("a runtime starting on the lease of this host's pid that no longer runs ends that process's running turn at start and runs the prompt queued behind it", async () => {
    const stores = await openTestStores();
    const on = hosts({ "box-1": [202] });
    const { turn, queued } = await deadProcessWithTurn(stores, on("box-1", 101));

    const clock = testClock(T0 + 1_000);
    const second = await relayProcess({
      stores,
      clock,
      ids: taggedIds("b"),
      runnerProcess: on("box-1", 202),
    });
    await settle(20);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({
      status: "error",
      error: RUNNER_GONE_MESSAGE,
      endedAt: T0 + 1_000,
    });
    expect(await second.runtime.waitForTurn(queued.id, 1_000)).toMatchObject({
      status: "done",
      text: "echo: next",
    });
    expect(await stores.leases.listLeases({ prefix: "runner:" })).toEqual([
      expect.objectContaining({ process: { host: "box-1", pid: 202 } }),
    ]);
  });

  it("a lease of this very process (another runtime embedded in it) is left alone, whatever the liveness check says", async () => {
    const stores = await openTestStores();
    const on = hosts({ "box-1": [] });
    const { turn } = await deadProcessWithTurn(stores, on("box-1", 101));

    const clock = testClock(T0 + 1_000);
    await relayProcess({ stores, clock, ids: taggedIds("b"), runnerProcess: on("box-1", 101) });
    await passInSteps(clock, RUNNER_HEARTBEAT_MS);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });
  });

  it("a process of this host that dies while another runs: its turns end at the other's next heartbeat", async () => {
    const stores = await openTestStores();
    const running = { "box-1": [101, 202] };
    const on = hosts(running);
    const clock = testClock(T0);
    await relayProcess({ stores, clock, ids: taggedIds("b"), runnerProcess: on("box-1", 202) });
    const { turn } = await deadProcessWithTurn(stores, on("box-1", 101));

    await passInSteps(clock, RUNNER_HEARTBEAT_MS);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });
    running["box-1"] = [202];
    await passInSteps(clock, RUNNER_HEARTBEAT_MS);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({
      status: "error",
      error: RUNNER_GONE_MESSAGE,
    });
    // Well before the lease would have expired.
    expect(clock.now()).toBeLessThan(T0 + RUNNER_LEASE_TTL_MS);
  });

  it.each([
    ["of another host, whatever its pid", "box-2", []],
    ["of this host whose pid still runs", "box-1", [101]],
  ] as const)(
    "a lease %s keeps the lease rule: its turn ends only once the lease expired",
    async (_, host, alive) => {
      const stores = await openTestStores();
      const on = hosts({ "box-1": [202, ...alive] });
      const { turn } = await deadProcessWithTurn(stores, on(host, 101));

      const clock = testClock(T0 + 1_000);
      await relayProcess({ stores, clock, ids: taggedIds("b"), runnerProcess: on("box-1", 202) });
      await passInSteps(clock, RUNNER_LEASE_TTL_MS - 1_000 - 1);
      expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });
      await passInSteps(clock, RUNNER_HEARTBEAT_MS + 1);
      expect(await stores.sessions.getTurn(turn.id)).toMatchObject({
        status: "error",
        error: RUNNER_GONE_MESSAGE,
      });
    },
  );

  it("without a runner process (a relay that names none) only the lease's expiry ends the turn", async () => {
    const stores = await openTestStores();
    const on = hosts({ "box-1": [202] });
    const { turn } = await deadProcessWithTurn(stores, on("box-1", 101));

    const clock = testClock(T0 + 1_000);
    const provider = createTestProvider();
    const runtime = createSessionRuntime({
      stores,
      providers: [provider],
      clock,
      ids: taggedIds("b"),
      callTool: async () => ({ ok: true }),
      sharedStore: true,
    });
    onTestFinished(() => runtime.close());
    await runtime.start();
    await passInSteps(clock, RUNNER_LEASE_TTL_MS - 1_000 - 1);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });
  });
});
