import { describe, expect, it } from "vitest";
import { OUTAGE_PROBE_MS } from "../../src/runtime/outage-waits";
import { RETRY_MAX_MS } from "../../src/shared/outage";
import { openTestStores, withFailingMethod } from "../../src/testing";
import { outage, passInSteps, runtimeHarness, settle, T0, testClock } from "./harness";

describe("the database answers again: writes waiting out the outage land at once (DESIGN §4, issue 27 item 5)", () => {
  it("a turn that ended during the outage is written within a probe of the database answering, not at its retry's next 5 s step", async () => {
    let down = false;
    let endTries = 0;
    const inner = await openTestStores();
    // The database is away for every call: the turn's end and the read that probes it.
    const ending = withFailingMethod(inner, "sessions.finishTurn", {
      failing: () => {
        endTries += down ? 1 : 0;
        return down;
      },
      error: outage,
    });
    const stores = withFailingMethod(ending, "leases.getLease", { failing: () => down, error: outage });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    const { turn } = await h.prompt(session.id, "work");
    const running = await h.provider.nextTurn();

    down = true;
    running.finish("the reply");
    // Long enough for the retries to wait their longest step.
    await passInSteps(clock, RETRY_MAX_MS * 3, 500);
    const tries = endTries;
    await passInSteps(clock, RETRY_MAX_MS, 50);
    expect(endTries).toBe(tries + 1);
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });

    // Just after a retry failed: its next step is about 5 s away.
    while (endTries === tries + 1) {
      await passInSteps(clock, 50, 50);
    }
    down = false;
    const back = clock.now();
    while (
      (await inner.sessions.getTurn(turn.id))?.status === "running" &&
      clock.now() - back < RETRY_MAX_MS
    ) {
      await passInSteps(clock, 10, 10);
    }
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "done", reply: "the reply" });
    expect(clock.now() - back).toBeLessThanOrEqual(OUTAGE_PROBE_MS);
  });

  it("the probe stops once nothing waits on the database", async () => {
    let down = true;
    let probes = 0;
    const inner = await openTestStores();
    const ending = withFailingMethod(inner, "sessions.finishTurn", { failing: () => down, error: outage });
    const stores = withFailingMethod(ending, "leases.getLease", {
      failing: () => {
        probes++;
        return down;
      },
      error: outage,
    });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    const { turn } = await h.prompt(session.id, "work");
    (await h.provider.nextTurn()).finish("the reply");
    await passInSteps(clock, RETRY_MAX_MS, 250);
    expect(probes).toBeGreaterThan(0);

    down = false;
    await passInSteps(clock, OUTAGE_PROBE_MS * 2, 50);
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "done" });
    const after = probes;
    await passInSteps(clock, RETRY_MAX_MS, 250);
    expect(probes).toBe(after);
  });

  it("a write that fails while the probe finds the database there keeps its backoff's steps", async () => {
    let tries = 0;
    const inner = await openTestStores();
    const stores = withFailingMethod(inner, "sessions.finishTurn", {
      failing: () => {
        tries++;
        return true;
      },
      error: outage,
    });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    await h.prompt(session.id, "work");
    (await h.provider.nextTurn()).finish("the reply");
    await passInSteps(clock, RETRY_MAX_MS * 3, 50);
    // 0, 0.2, 0.6, 1.4, 3, 6.2 and 11.2 s: one try every OUTAGE_PROBE_MS would be some sixty.
    expect(tries).toBe(7);
  });

  it("closing during an outage does not wait out the retry's step: the write gives up and the next start recovers it", async () => {
    const inner = await openTestStores();
    const stores = withFailingMethod(inner, "sessions.finishTurn", { error: outage });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    const { turn } = await h.prompt(session.id, "work");
    (await h.provider.nextTurn()).finish("the reply");
    await passInSteps(clock, RETRY_MAX_MS * 3, 500);

    let closed = false;
    void h.runtime.close().then(() => {
      closed = true;
    });
    await settle(50);
    expect(closed).toBe(true);
    expect(await inner.sessions.getTurn(turn.id)).toMatchObject({ status: "running" });
  });
});
