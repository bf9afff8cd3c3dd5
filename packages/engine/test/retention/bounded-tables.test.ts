import { toIso } from "@oar/core";
import { describe, expect, it } from "vitest";
import { PRUNE_KINDS, type PruneKind } from "../../src/ports/retention-store";
import { newTask } from "../../src/testing";
import { createWatchingHarness } from "../watching/watching-harness";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** One round of the workload every 8 hours, for 10 days: past every span kept, the outbox's 7 days included. */
const CYCLE = 8 * HOUR;
const CYCLES = 30;
/** From here on (day 8) every kind holds only what its span keeps. */
const STEADY = 8 * 3;
const CALLS_PER_CYCLE = 8;
/** The clock time a round's workload takes: the grouping window twice, and the schedule's minute. */
const WORKLOAD_MS = 31_000 + MINUTE + 31_000;

type Counts = Readonly<Record<PruneKind, number>>;

describe("retention's measured effect (issue 32)", () => {
  // Ten days of rounds, each a few dozen calls: longer than the suites' 30 s net on a loaded database.
  it("under a steady workload the pruned tables stay flat, while what was written keeps growing", {
    timeout: 120_000,
  }, async () => {
    // A pass at the end of each round only, so what a round wrote can be counted before it.
    const h = await createWatchingHarness({ retention: { everyMs: CYCLE } });
    const worker = await h.ownerSession({ title: "Worker" });
    await h.subscribe({ sessions: [worker.id] });
    // The subscribe call's 🛰️ line lands before the first round is counted.
    await h.pass(MINUTE);
    const written: Record<PruneKind, number> = Object.fromEntries(
      PRUNE_KINDS.map((kind) => [kind, 0]),
    ) as Record<PruneKind, number>;
    const after: Counts[] = [];

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const before = await h.stores.retention.countRows();
      // The events of a turn, their delivery and wake-up in the watcher, whose own turn follows.
      await h.prompt(worker, `round ${cycle}`);
      await h.jump(31_000);
      // The watcher's relay_tool calls (its activity's 🛰️ lines).
      for (let call = 0; call < CALLS_PER_CYCLE; call++) {
        await h.ok({ action: "list_sessions", relay: "this" });
      }
      // A schedule that fires once, in a minute: its slot is recorded, and it ends.
      await h.ok({ action: "schedule", title: "Check", at: toIso(h.clock.now() + MINUTE), text: "Check." });
      await h.jump(MINUTE);
      await h.jump(31_000);
      // A task as the task host leaves it an hour after its end: ended, its output file removed.
      const task = `tsk_${String(cycle).padStart(4, "0")}`;
      await h.stores.tasks.insertTask(newTask(task, worker.id, { startedAt: h.clock.now() }));
      await h.stores.tasks.endTask({ id: task, status: "finished", exitCode: 0, endedAt: h.clock.now() });
      await h.stores.tasks.forgetOutput(task);
      // What the round wrote: the pruner's pass comes only at the round's end.
      const grown = await h.stores.retention.countRows();
      for (const kind of PRUNE_KINDS) {
        written[kind] += Math.max(0, grown[kind] - before[kind]);
      }
      await h.jump(CYCLE - WORKLOAD_MS);
      after.push(await h.stores.retention.countRows());
    }

    const steady = after.slice(STEADY);
    for (const kind of PRUNE_KINDS) {
      const series = after.map((counts) => counts[kind]);
      // Flat: once every span is full, no count goes above where the steady state began.
      expect(
        Math.max(...steady.map((counts) => counts[kind])),
        `${kind}: ${series.join(" ")}`,
      ).toBeLessThanOrEqual((after[STEADY - 1] as Counts)[kind]);
      // Bounded: a fraction of what the workload wrote.
      expect((after.at(-1) as Counts)[kind], `${kind}: ${series.join(" ")}`).toBeLessThan(written[kind]);
    }
    expect((after.at(-1) as Counts).toolCalls).toBe(200);
    // Each round's calls and its schedule call.
    expect(written.toolCalls).toBe(CYCLES * (CALLS_PER_CYCLE + 1));
  });
});
