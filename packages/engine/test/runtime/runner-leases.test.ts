import type { FakeClock } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import type { EngineStores } from "../../src";
import { RUNNER_GONE_MESSAGE } from "../../src/runtime/recovery";
import { RUNNER_HEARTBEAT_MS, RUNNER_LEASE_TTL_MS } from "../../src/runtime/runner-lease";
import { TURN_POLL_MS } from "../../src/runtime/turn-watch";
import { RETRY_MAX_MS } from "../../src/shared/outage";
import { openTestStores, withFailingMethod } from "../../src/testing";
import { testClock } from "../actions/harness";
import { outage, passInSteps, runtimeHarness, settle, T0, taggedIds } from "./harness";

/** A runtime on shared `stores` running a held turn in session ses_a: the first relay process. */
async function firstWithHeldTurn(stores: EngineStores, clock: FakeClock) {
  const first = await runtimeHarness({ stores, clock, sharedStore: true });
  const session = await first.createSession({ id: "ses_a" });
  first.provider.hold();
  const { turn } = await first.prompt(session.id, "long work");
  const running = await first.provider.nextTurn();
  return { first, session, turn, running };
}

/** A second runtime on the same stores, with ids apart from the first's. */
const secondOn = (stores: EngineStores, clock: FakeClock) =>
  runtimeHarness({ stores, clock, sharedStore: true, ids: taggedIds("b") });

describe("two relay processes on one store (DESIGN §9, issue 8 item 4)", () => {
  it("a second process starting leaves the first's running turn alone, and its reply arrives", async () => {
    const stores = await openTestStores();
    const clock = testClock(T0);
    const { first, turn, running } = await firstWithHeldTurn(stores, clock);

    const second = await secondOn(stores, clock);
    await second.runtime.start();
    await passInSteps(clock, RUNNER_LEASE_TTL_MS * 2);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });

    running.finish("the reply");
    expect(await first.runtime.waitForTurn(turn.id, 1_000)).toMatchObject({
      status: "done",
      text: "the reply",
    });
  });

  it("a process that stops renewing loses its turn once its lease expires; another runs the queue; the late reply is not written", async () => {
    const stores = await openTestStores();
    // The first process's clock stands still: it neither renews nor looks at anything.
    const frozen = testClock(T0);
    const clock = testClock(T0);
    const { first, session, turn, running: stuck } = await firstWithHeldTurn(stores, frozen);
    const queued = await first.prompt(session.id, "next");

    const second = await secondOn(stores, clock);
    await passInSteps(clock, RUNNER_LEASE_TTL_MS - RUNNER_HEARTBEAT_MS);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });

    await passInSteps(clock, RUNNER_HEARTBEAT_MS * 2);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({
      status: "error",
      error: RUNNER_GONE_MESSAGE,
    });
    expect(await second.runtime.waitForTurn(queued.turn.id, 1_000)).toMatchObject({
      status: "done",
      text: "echo: next",
    });

    // The first process comes back: its reply is not written, the recovered turn stays as it is.
    stuck.finish("too late");
    await settle(20);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "error", reply: null });
    expect((await stores.sessions.listMessages(session.id)).map((m) => m.text)).not.toContain("too late");
  });

  it("a process that finds its lease taken stops its turns, writes nothing for them, and goes on under a new lease", async () => {
    const stores = await openTestStores();
    const frozen = testClock(T0);
    const clock = testClock(T0);
    const { first, session, turn, running: stuck } = await firstWithHeldTurn(stores, frozen);
    const second = await secondOn(stores, clock);
    await passInSteps(clock, RUNNER_LEASE_TTL_MS + RUNNER_HEARTBEAT_MS * 2);
    expect((await stores.sessions.getTurn(turn.id))?.status).toBe("error");

    // The first process's next heartbeat: its lease is gone.
    frozen.advance(RUNNER_LEASE_TTL_MS + RUNNER_HEARTBEAT_MS * 2);
    await passInSteps(frozen, RUNNER_HEARTBEAT_MS);
    expect(stuck.io.signal.aborted).toBe(true);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ error: RUNNER_GONE_MESSAGE });
    // It runs new turns again, under a lease of its own.
    first.provider.hold(false);
    const again = await first.prompt(session.id, "again");
    expect(await first.runtime.waitForTurn(again.turn.id, 1_000)).toMatchObject({ status: "done" });
    expect((await stores.sessions.getTurn(again.turn.id))?.runner?.lease).toMatch(/^runner:run_/);
    await second.runtime.close();
  });

  it("a process that stalled past its lease claims nothing under it before it learns so: the prompt it takes runs under its next lease", async () => {
    const stores = await openTestStores();
    const frozen = testClock(T0);
    const clock = testClock(T0);
    const { first, turn } = await firstWithHeldTurn(stores, frozen);
    const other = await first.createSession({ id: "ses_b" });
    const second = await secondOn(stores, clock);
    await passInSteps(clock, RUNNER_LEASE_TTL_MS + RUNNER_HEARTBEAT_MS * 2);
    expect((await stores.sessions.getTurn(turn.id))?.status).toBe("error");

    // Back from its stall, before its next heartbeat: a turn claimed now would be nobody's, as
    // the recovery of its lease is over (the soak's ledger: a turn left running for good).
    const late = await first.prompt(other.id, "after the stall");
    await settle(20);
    expect(await stores.sessions.getTurn(late.turn.id)).toMatchObject({ status: "queued", runner: null });

    frozen.advance(RUNNER_LEASE_TTL_MS + RUNNER_HEARTBEAT_MS * 2);
    await passInSteps(frozen, RUNNER_HEARTBEAT_MS);
    const running = await first.provider.nextTurn();
    running.finish("the late reply");
    expect(await first.runtime.waitForTurn(late.turn.id, 1_000)).toMatchObject({
      status: "done",
      text: "the late reply",
    });
    const lease = (await stores.sessions.getTurn(late.turn.id))?.runner?.lease;
    expect(lease).toMatch(/^runner:run_/);
    expect(lease).not.toBe((await stores.sessions.getTurn(turn.id))?.runner?.lease);
    await second.runtime.close();
  });

  it("a wait sees a turn another process ended within a poll (≤ 1 s), with no wake-up of its own", async () => {
    const stores = await openTestStores();
    const clock = testClock(T0);
    const { turn, running } = await firstWithHeldTurn(stores, clock);

    const watcher = await secondOn(stores, clock);
    let ended: string | undefined;
    void watcher.runtime.waitForTurn(turn.id, 60_000).then((snapshot) => {
      ended = snapshot.status;
    });
    running.finish("done elsewhere");
    await settle(20);
    expect(ended).toBeUndefined();
    await passInSteps(clock, TURN_POLL_MS, TURN_POLL_MS);
    expect(ended).toBe("done");
  });
});

describe("the database goes away while a turn ends (DESIGN §4, issue 8 item 3)", () => {
  it("the end is retried until it lands; the session is not wedged and the next prompt runs", async () => {
    let down = false;
    const inner = await openTestStores();
    const stores = withFailingMethod(inner, "sessions.finishTurn", { failing: () => down, error: outage });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    const { turn } = await h.prompt(session.id, "work");
    const running = await h.provider.nextTurn();
    const next = await h.prompt(session.id, "next");

    down = true;
    running.finish("the reply");
    await passInSteps(clock, RETRY_MAX_MS * 3);
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });
    expect(await inner.sessions.getTurn(next.turn.id)).toMatchObject({ status: "queued" });

    down = false;
    h.provider.hold(false);
    await passInSteps(clock, RETRY_MAX_MS);
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "done", reply: "the reply" });
    expect(await h.runtime.waitForTurn(next.turn.id, 1_000)).toMatchObject({ status: "done" });
  });

  it("a claim that meets an outage is retried: a queued prompt runs once the database answers", async () => {
    let down = true;
    const inner = await openTestStores();
    const stores = withFailingMethod(inner, "sessions.claimNextTurn", { failing: () => down, error: outage });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    const { turn } = await h.prompt(session.id, "work");
    await passInSteps(clock, RETRY_MAX_MS * 2);
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "queued" });
    down = false;
    await passInSteps(clock, RETRY_MAX_MS);
    expect(await h.runtime.waitForTurn(turn.id, 1_000)).toMatchObject({ status: "done" });
  });

  it("a reply the database cannot store (a NUL character) is stored with the character replaced", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    const { turn } = await h.prompt(session.id, "work");
    (await h.provider.nextTurn()).finish("a\u0000b");
    expect(await h.runtime.waitForTurn(turn.id, 1_000)).toMatchObject({ status: "done", text: "a\uFFFDb" });
  });
});
