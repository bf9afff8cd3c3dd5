import type { NewSchedule, ScheduleFiring } from "@oar/engine";
import { newSession } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import type { Stores } from "../src";
import { postgresDatabase } from "./databases";
import { gate, stillPending, useTwoProcesses } from "./holding";

const T0 = Date.UTC(2026, 0, 1);
const ROUNDS = 10;

function schedule(id: string, dueAt: number): NewSchedule {
  return {
    id,
    title: `Schedule ${id}`,
    text: "Check the nightly build",
    sessionId: "ses_1",
    createdBy: "ses_1",
    at: null,
    everyMinutes: 60,
    once: false,
    anchor: dueAt,
    nextFireAt: dueAt,
    provenance: null,
    createdAt: T0,
  };
}

function firing(id: string, scheduleId: string): ScheduleFiring {
  return { id, scheduleId, slot: T0 + 1, outcome: "fired", turnId: null, at: T0 + 1 };
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

// What PGlite's single connection cannot show (DESIGN §9): two relay processes firing schedules
// on one Postgres, each with its own pool.
describe.skipIf(!postgresDatabase.available)("schedules on Postgres with several processes", () => {
  const { a, b } = useTwoProcesses();

  async function seed(count: number, prefix = "sch") {
    await a().sessions.createSession(newSession("ses_1"));
    for (let n = 1; n <= count; n++) {
      await a().schedules.insertSchedule(schedule(`${prefix}_${n}`, T0 + n));
    }
  }

  it("holds a transaction's claimed schedules until it ends: another one skips them, without waiting", async () => {
    await seed(4);
    const held = gate();
    const claimed = gate();
    const first = a().transaction(async (tx) => {
      const schedules = await tx.schedules.claimDueSchedules({ now: T0 + 10, limit: 2 });
      claimed.open();
      await held.opened;
      return schedules;
    });
    await claimed.opened;
    expect(
      ids(await b().transaction((tx) => tx.schedules.claimDueSchedules({ now: T0 + 10, limit: 10 }))),
    ).toEqual(["sch_3", "sch_4"]);
    held.open();
    expect(ids(await first)).toEqual(["sch_1", "sch_2"]);
    expect(
      ids(await b().transaction((tx) => tx.schedules.claimDueSchedules({ now: T0 + 10, limit: 10 }))),
    ).toEqual(["sch_1", "sch_2", "sch_3", "sch_4"]);
  });

  it("never gives one schedule to two transactions claiming at once", async () => {
    await a().sessions.createSession(newSession("ses_1"));
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of [1, 2, 3, 4, 5, 6]) {
        await a().schedules.insertSchedule(schedule(`sch_${round}_${n}`, T0 + n));
      }
      const both = gate();
      let claims = 0;
      const claim = (stores: Stores) =>
        stores.transaction(async (tx) => {
          const schedules = await tx.schedules.claimDueSchedules({ now: T0 + 10, limit: 3 });
          if (++claims === 2) {
            both.open();
          }
          // Both stay open until both have claimed: neither may wait for the other's rows.
          await both.opened;
          for (const claimed of schedules) {
            await tx.schedules.endSchedule({ id: claimed.id, reason: "fired", at: T0 + 10 });
          }
          return ids(schedules);
        });
      const [first, second] = await Promise.all([claim(a()), claim(b())]);
      expect([...first, ...second].sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `sch_${round}_${n}`));
      expect(await a().schedules.claimDueSchedules({ now: T0 + 10, limit: 10 })).toEqual([]);
    }
  });

  it("records a slot once when two transactions record it: the second waits for the first, then finds it", async () => {
    await seed(1);
    const held = gate();
    const recorded = gate();
    const first = a().transaction(async (tx) => {
      const fresh = await tx.schedules.recordFiring(firing("fir_a", "sch_1"));
      recorded.open();
      await held.opened;
      return fresh;
    });
    await recorded.opened;
    const second = b().transaction((tx) => tx.schedules.recordFiring(firing("fir_b", "sch_1")));
    expect(await stillPending(second)).toBe(true);
    held.open();
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(ids(await a().schedules.listFirings("sch_1"))).toEqual(["fir_a"]);
  });

  it("lets the slot of a transaction that rolled back be recorded by another", async () => {
    await seed(1);
    const held = gate();
    const recorded = gate();
    const first = a().transaction(async (tx) => {
      await tx.schedules.recordFiring(firing("fir_a", "sch_1"));
      recorded.open();
      await held.opened;
      throw new Error("The relay process died before its turn was queued.");
    });
    await recorded.opened;
    const second = b().transaction((tx) => tx.schedules.recordFiring(firing("fir_b", "sch_1")));
    held.open();
    await expect(first).rejects.toThrow("died");
    expect(await second).toBe(true);
    expect(ids(await a().schedules.listFirings("sch_1"))).toEqual(["fir_b"]);
  });

  it("records a slot once however many transactions race for it", async () => {
    await seed(ROUNDS, "sch_race");
    for (let round = 1; round <= ROUNDS; round++) {
      const results = await Promise.all(
        ["a", "b", "c", "d"].map((name, i) =>
          (i % 2 === 0 ? a() : b()).transaction((tx) =>
            tx.schedules.recordFiring(firing(`fir_${round}_${name}`, `sch_race_${round}`)),
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await a().schedules.listFirings(`sch_race_${round}`)).toHaveLength(1);
    }
  });
});
