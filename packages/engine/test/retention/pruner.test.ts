import { overriding } from "@oar/core";
import { createSequentialIdGenerator } from "@oar/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { createEngine } from "../../src/create-engine";
import type { EngineStores } from "../../src/ports/engine-stores";
import type { RetentionOptions } from "../../src/ports/retention-options";
import type { PruneKind } from "../../src/ports/retention-store";
import { createPruner, RETENTION_LEASE_PREFIX } from "../../src/retention/pruner";
import { resolveRetention } from "../../src/retention/resolve-retention";
import { createTestProvider, openTestStores } from "../../src/testing";
import { RELAY, settle, T0, testClock } from "../actions/harness";
import { seedRows } from "./seed-rows";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = T0 + 30 * DAY;

/** A logger that keeps the warnings: a pass that fails says so there. */
function warnings() {
  const seen: string[] = [];
  return {
    seen,
    logger: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => seen.push(message),
      error: () => {},
    },
  };
}

/** The stores with each compaction recorded. */
function recordingCompactions(stores: EngineStores, compacted: PruneKind[][]): EngineStores {
  return overriding(stores, {
    retention: overriding(stores.retention, {
      compact: async (kinds) => {
        compacted.push([...kinds]);
        await stores.retention.compact(kinds);
      },
    }),
  });
}

async function rig(options: RetentionOptions = {}, wrap: (stores: EngineStores) => EngineStores = (s) => s) {
  const stores = await openTestStores();
  const clock = testClock(NOW);
  const { seen, logger } = warnings();
  const pruner = createPruner({
    stores: wrap(stores),
    clock,
    ids: createSequentialIdGenerator(),
    logger,
    options: resolveRetention(options),
  });
  onTestFinished(() => pruner.close());
  return { stores, clock, pruner, warnings: seen, seed: seedRows(stores) };
}

const wakeupCount = async (stores: EngineStores) => (await stores.retention.countRows()).wakeups;

describe("the pruner: claimed due work, off the hot path (DESIGN §9)", () => {
  it("passes on the clock's timer: the first one minute after the start, then every minute, none after close", async () => {
    const { stores, clock, pruner, seed } = await rig();
    await seed.wakeup("msg_1", NOW - 3 * HOUR);
    pruner.start();
    expect(await wakeupCount(stores)).toBe(1);
    await clock.advanceAsync(MINUTE - 1);
    await pruner.settled();
    expect(await wakeupCount(stores)).toBe(1);
    await clock.advanceAsync(1);
    await pruner.settled();
    expect(await wakeupCount(stores)).toBe(0);

    await seed.wakeup("msg_2", NOW - 3 * HOUR);
    await clock.advanceAsync(MINUTE);
    await pruner.settled();
    expect(await wakeupCount(stores)).toBe(0);

    await seed.wakeup("msg_3", NOW - 3 * HOUR);
    await pruner.close();
    await clock.advanceAsync(10 * MINUTE);
    expect(await wakeupCount(stores)).toBe(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("deletes in batches of `batchSize`, at most `batchesPerPass` a kind; a backlog goes on a second later", async () => {
    const { stores, clock, pruner, seed } = await rig({ batchSize: 2, batchesPerPass: 2 });
    for (let n = 0; n < 7; n++) {
      await seed.wakeup(`msg_${n}`, NOW - 3 * HOUR);
    }
    const report = await pruner.pruneNow();
    expect(report.pruned.wakeups).toBe(4);
    expect(report.unfinished).toEqual(["wakeups"]);
    expect(await wakeupCount(stores)).toBe(3);

    pruner.start();
    await clock.advanceAsync(MINUTE);
    await pruner.settled();
    expect(await wakeupCount(stores)).toBe(0);
    // The second pass found 3 (2 + 1): done, so the next one is a minute away, not a second.
    await seed.wakeup("msg_late", NOW - 3 * HOUR);
    await clock.advanceAsync(1_000);
    await pruner.settled();
    expect(await wakeupCount(stores)).toBe(1);
  });

  it("leaves a kind another process holds the lease of to it, and takes it over once that lease expires", async () => {
    const { stores, clock, pruner, seed } = await rig();
    await seed.wakeup("msg_1", NOW - 3 * HOUR);
    await seed.sentDelivery("dlv_1", NOW - 2 * DAY);
    const held = await stores.leases.acquireLease({
      name: `${RETENTION_LEASE_PREFIX}wakeups`,
      owner: "run_other_process",
      ttlMs: 5 * MINUTE,
      now: NOW,
    });
    expect(held.ok).toBe(true);

    const first = await pruner.pruneNow();
    expect(first.skipped).toEqual(["wakeups"]);
    expect(first.pruned).toMatchObject({ wakeups: 0, deliveries: 1 });
    expect(await wakeupCount(stores)).toBe(1);

    await clock.advanceAsync(5 * MINUTE);
    const second = await pruner.pruneNow();
    expect(second.skipped).toEqual([]);
    expect(second.pruned.wakeups).toBe(1);
    // Its own lease is let go after each kind: another process may take the next pass.
    const lease = await stores.leases.getLease(`${RETENTION_LEASE_PREFIX}wakeups`);
    expect(lease?.expiresAt).toBeLessThanOrEqual(clock.now());
  });

  it("compacts the kinds it pruned after a pass, then at most once per `compactEveryMs`", async () => {
    const compacted: PruneKind[][] = [];
    const { clock, pruner, seed } = await rig({ compactEveryMs: HOUR }, (stores) =>
      recordingCompactions(stores, compacted),
    );
    expect((await pruner.pruneNow()).compacted).toBe(false);
    await seed.wakeup("msg_1", NOW - 3 * HOUR);
    await seed.sentDelivery("dlv_1", NOW - 2 * DAY);
    expect((await pruner.pruneNow()).compacted).toBe(true);
    expect(compacted).toEqual([["deliveries", "wakeups"]]);

    await clock.advanceAsync(HOUR - 1);
    await seed.wakeup("msg_2", NOW - 3 * HOUR);
    expect((await pruner.pruneNow()).compacted).toBe(false);
    await clock.advanceAsync(1);
    expect((await pruner.pruneNow()).compacted).toBe(true);
    expect(compacted).toEqual([["deliveries", "wakeups"], ["wakeups"]]);
  });

  it("a kind that fails is logged and tried again by the next pass; the other kinds go on", async () => {
    const {
      stores,
      pruner,
      seed,
      warnings: seen,
    } = await rig({}, (inner) =>
      overriding(inner, {
        retention: overriding(inner.retention, {
          pruneWakeups: async () => {
            throw new Error("the database went away");
          },
        }),
      }),
    );
    await seed.wakeup("msg_1", NOW - 3 * HOUR);
    await seed.sentDelivery("dlv_1", NOW - 2 * DAY);
    const report = await pruner.pruneNow();
    expect(report.failed).toEqual(["wakeups"]);
    expect(report.pruned.deliveries).toBe(1);
    expect(seen).toEqual(["Pruning old rows failed; the next pass tries again."]);
    expect(await wakeupCount(stores)).toBe(1);
  });
});

describe("retention options", () => {
  it("default to the catalogue's spans and refuse what would break a rule", () => {
    expect(resolveRetention()).toMatchObject({
      everyMs: MINUTE,
      batchSize: 500,
      eventsKeptMs: 7 * DAY,
      wakeupsKeptMs: 2 * HOUR,
      toolCallsKept: 200,
    });
    expect(resolveRetention({ toolCallsKept: 1_000, deliveriesKeptMs: 0 })).toMatchObject({
      toolCallsKept: 1_000,
      deliveriesKeptMs: 0,
    });
    expect(() => resolveRetention({ eventsKeptMs: 7 * DAY - 1 })).toThrowError(/eventsKeptMs/);
    expect(() => resolveRetention({ wakeupsKeptMs: HOUR - 1 })).toThrowError(/wakeupsKeptMs/);
    expect(() => resolveRetention({ toolCallsKept: 199 })).toThrowError(/toolCallsKept/);
    expect(() => resolveRetention({ tasksKeptMs: HOUR - 1 })).toThrowError(/tasksKeptMs/);
    expect(() => resolveRetention({ batchSize: 0, everyMs: 1.5 })).toThrowError(
      /batchSize.*everyMs|everyMs.*batchSize/,
    );
  });
});

describe("the engine's pruner", () => {
  async function engineWith(retention?: RetentionOptions) {
    const stores = await openTestStores();
    const clock = testClock(NOW);
    const engine = createEngine({
      stores,
      providers: [createTestProvider()],
      clock,
      ids: createSequentialIdGenerator(),
      relay: RELAY,
      approvalCards: false,
      ...(retention === undefined ? {} : { retention }),
    });
    await engine.start();
    onTestFinished(() => engine.close());
    return { stores, clock, engine, seed: seedRows(stores) };
  }

  it("runs on its timer when the app gives retention options", async () => {
    const { stores, clock, seed } = await engineWith({ everyMs: 5 * MINUTE });
    await seed.wakeup("msg_1", NOW - 3 * HOUR);
    await clock.advanceAsync(5 * MINUTE);
    await settle();
    expect(await wakeupCount(stores)).toBe(0);
  });

  it("prunes nothing by itself without them, and still prunes when asked", async () => {
    const { stores, clock, engine, seed } = await engineWith();
    await seed.wakeup("msg_1", NOW - 3 * HOUR);
    await clock.jumpAsync(HOUR);
    await settle();
    expect(await wakeupCount(stores)).toBe(1);
    expect((await engine.pruneNow()).pruned.wakeups).toBe(1);
    expect(await wakeupCount(stores)).toBe(0);
  });
});
