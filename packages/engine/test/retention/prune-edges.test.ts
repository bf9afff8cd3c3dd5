import { createSequentialIdGenerator } from "@oar/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import type { EngineStores } from "../../src/ports/engine-stores";
import type { RetentionOptions } from "../../src/ports/retention-options";
import { createPruner, type Pruner } from "../../src/retention/pruner";
import { RETENTION_DEFAULTS, resolveRetention } from "../../src/retention/resolve-retention";
import { openTestStores } from "../../src/testing";
import { T0, testClock } from "../actions/harness";
import { seedRows } from "./seed-rows";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A month after T0: every age of the rules fits before it. */
const NOW = T0 + 30 * DAY;

async function rig(options: RetentionOptions = {}) {
  const stores = await openTestStores();
  const clock = testClock(NOW);
  const pruner: Pruner = createPruner({
    stores,
    clock,
    ids: createSequentialIdGenerator(),
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    options: resolveRetention(options),
  });
  onTestFinished(() => pruner.close());
  return { stores, clock, pruner, seed: seedRows(stores) };
}

const eventIds = async (stores: EngineStores) =>
  (await stores.events.listEvents({ after: 0, limit: 1_000 })).map((event) => event.id);

describe("pruning at each rule's edge, on the clock (DESIGN §9, issue 32)", () => {
  it("R-PAIR-04: an event routed more than 7 days ago goes; one of exactly 7 days, or one routing has not passed, stays", async () => {
    const { stores, clock, pruner, seed } = await rig();
    const age = RETENTION_DEFAULTS.eventsKeptMs;
    expect(age).toBe(7 * DAY);
    await seed.event("evt_older", NOW - age - 1);
    await seed.event("evt_edge", NOW - age);
    const passed = await seed.event("evt_older_too", NOW - age - 1);
    await seed.event("evt_unrouted", NOW - 2 * age);
    await seed.event("evt_newest", NOW);
    await seed.routedUpTo(passed);

    expect((await pruner.pruneNow()).pruned.events).toBe(2);
    expect(await eventIds(stores)).toEqual(["evt_edge", "evt_unrouted", "evt_newest"]);

    await clock.advanceAsync(1);
    expect((await pruner.pruneNow()).pruned.events).toBe(1);
    expect(await eventIds(stores)).toEqual(["evt_unrouted", "evt_newest"]);
    // Once routing passes it, the old one goes too; the newest always stays.
    await seed.routedUpTo();
    expect((await pruner.pruneNow()).pruned.events).toBe(1);
    expect(await eventIds(stores)).toEqual(["evt_newest"]);
  });

  it("a delivery sent more than a day ago goes; one of exactly a day stays, and goes a millisecond later", async () => {
    const { stores, clock, pruner, seed } = await rig();
    await seed.sentDelivery("dlv_older", NOW - DAY - 1);
    await seed.sentDelivery("dlv_edge", NOW - DAY);
    expect((await pruner.pruneNow()).pruned.deliveries).toBe(1);
    expect((await stores.retention.countRows()).deliveries).toBe(1);
    await clock.advanceAsync(1);
    expect((await pruner.pruneNow()).pruned.deliveries).toBe(1);
    expect((await stores.retention.countRows()).deliveries).toBe(0);
  });

  it("R-DLV-05: a wake-up goes past two hours (the cap's hour and a margin); one of exactly two hours stays", async () => {
    const { stores, clock, pruner, seed } = await rig();
    await seed.wakeup("msg_older", NOW - 2 * HOUR - 1);
    await seed.wakeup("msg_edge", NOW - 2 * HOUR);
    await seed.wakeup("msg_in_the_hour", NOW - HOUR);
    expect((await pruner.pruneNow()).pruned.wakeups).toBe(1);
    await clock.advanceAsync(1);
    expect((await pruner.pruneNow()).pruned.wakeups).toBe(1);
    const left = await stores.deliveries.listWakeups({ watchers: ["ses_watcher"], since: 0 });
    expect(left.map((wakeup) => wakeup.messageId)).toEqual(["msg_in_the_hour"]);
  });

  it("a schedule's firings go more than a day after it ended; a live schedule's stay, however old", async () => {
    const { stores, clock, pruner, seed } = await rig();
    const session = await seed.session();
    const slots = [NOW - 20 * DAY, NOW - 19 * DAY];
    await seed.scheduleWithFirings("sch_older", session, slots);
    await seed.scheduleWithFirings("sch_edge", session, slots);
    await seed.scheduleWithFirings("sch_live", session, slots);
    await seed.endSchedule("sch_older", NOW - DAY - 1);
    await seed.endSchedule("sch_edge", NOW - DAY);

    expect((await pruner.pruneNow()).pruned.firings).toBe(2);
    expect(await stores.schedules.listFirings("sch_older")).toEqual([]);
    expect(await stores.schedules.listFirings("sch_edge")).toHaveLength(2);
    await clock.advanceAsync(1);
    expect((await pruner.pruneNow()).pruned.firings).toBe(2);
    expect(await stores.schedules.listFirings("sch_edge")).toEqual([]);
    expect(await stores.schedules.listFirings("sch_live")).toHaveLength(2);
  });

  it("R-UI-02: with N = 200, a conversation's 200th newest call stays and the 201st goes", async () => {
    const { stores, pruner, seed } = await rig({ toolCallsKept: 200 });
    const busy = await seed.session();
    const quiet = await seed.session();
    await seed.toolCalls(busy, "call", 201, T0);
    await seed.toolCalls(quiet, "quiet", 200, T0);
    expect((await pruner.pruneNow()).pruned.toolCalls).toBe(1);
    const kept = await stores.toolCalls.listToolCalls(busy, { limit: 1_000 });
    expect(kept).toHaveLength(200);
    expect(kept[0]?.id).toBe("call_1");
    expect(kept.at(-1)?.id).toBe("call_200");
    expect(await stores.toolCalls.listToolCalls(quiet, { limit: 1_000 })).toHaveLength(200);
  });

  it("R-RTO-07: an ended task's row goes more than a day after its end once its output is gone; one of exactly a day stays", async () => {
    const { stores, clock, pruner, seed } = await rig();
    const session = await seed.session();
    await seed.endedTask("tsk_older", session, NOW - DAY - 1);
    await seed.endedTask("tsk_edge", session, NOW - DAY);
    await seed.endedTask("tsk_output_kept", session, NOW - 2 * DAY, false);
    expect((await pruner.pruneNow()).pruned.tasks).toBe(1);
    expect(await stores.tasks.getTask("tsk_older")).toBeNull();
    await clock.advanceAsync(1);
    expect((await pruner.pruneNow()).pruned.tasks).toBe(1);
    expect(await stores.tasks.getTask("tsk_edge")).toBeNull();
    expect(await stores.tasks.getTask("tsk_output_kept")).not.toBeNull();
  });
});
