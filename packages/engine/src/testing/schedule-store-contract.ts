import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { NewSchedule, ScheduleFiring, ScheduleStore } from "../ports/schedule-store";
import type { Provenance, SessionStore } from "../ports/session-store";
import { newSession } from "./fixtures";

/** A ScheduleStore fixture; `sessions` is the SessionStore of the same database, for the sessions schedules fire in. */
export interface ScheduleStoreFixture extends ContractFixture<ScheduleStore> {
  readonly sessions: SessionStore;
}

const HOUR = 3_600_000;

const PROVENANCE: Provenance = {
  relay: "relay-a",
  session: "ses_1",
  title: "Release captain",
  model: null,
  hops: 2,
  userUnlocked: true,
};

function schedule(id: string, overrides: Partial<NewSchedule> = {}): NewSchedule {
  return {
    id,
    title: `Schedule ${id}`,
    text: `Check the nightly build (${id})`,
    sessionId: "ses_1",
    createdBy: "ses_1",
    at: null,
    everyMinutes: 60,
    once: false,
    anchor: T0 + HOUR,
    nextFireAt: T0 + HOUR,
    provenance: null,
    createdAt: T0,
    ...overrides,
  };
}

function firing(id: string, overrides: Partial<ScheduleFiring> = {}): ScheduleFiring {
  return {
    id,
    scheduleId: "sch_1",
    slot: T0 + HOUR,
    outcome: "fired",
    turnId: null,
    at: T0 + HOUR,
    ...overrides,
  };
}

/** The behaviour every ScheduleStore must have (§33; DESIGN §3: a slot fires once, whatever crashes). */
export function runScheduleStoreContract(setup: ContractSetup<ScheduleStoreFixture>): void {
  describe("ScheduleStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

    async function sessions(...sessionIds: string[]) {
      for (const id of sessionIds) {
        await fixture().sessions.createSession(newSession(id));
      }
    }

    it("stores every field of a schedule, due at its first slot with nothing fired yet", async () => {
      await sessions("ses_1", "ses_2");
      const input = schedule("sch_1", {
        title: "Stand-up digest",
        text: "Summarise yesterday's merges",
        sessionId: "ses_2",
        createdBy: "ses_1",
        at: T0 + 2 * HOUR,
        everyMinutes: null,
        once: true,
        anchor: T0 + 2 * HOUR,
        nextFireAt: T0 + 2 * HOUR,
        provenance: PROVENANCE,
        createdAt: T0 + 5,
      });
      const stored = await store().insertSchedule(input);
      expect(stored).toEqual({
        ...input,
        lastFiredAt: null,
        lastTurnId: null,
        firedCount: 0,
        skippedCount: 0,
        heldSince: null,
        dueAt: T0 + 2 * HOUR,
        endedAt: null,
        endReason: null,
      });
      expect(await store().getSchedule("sch_1")).toEqual(stored);
      expect(await store().getSchedule("sch_none")).toBeNull();

      await store().insertSchedule(schedule("sch_2"));
      expect(await store().getSchedule("sch_2")).toMatchObject({
        at: null,
        everyMinutes: 60,
        once: false,
        provenance: null,
        anchor: T0 + HOUR,
      });
    });

    it("lists the schedules a conversation fires in or created, active or ended since a time, oldest first", async () => {
      await sessions("ses_1", "ses_2", "ses_3");
      await store().insertSchedule(schedule("sch_created", { sessionId: "ses_2", createdAt: T0 + 2 }));
      await store().insertSchedule(schedule("sch_own", { createdAt: T0 + 1 }));
      await store().insertSchedule(schedule("sch_for_me", { createdBy: "ses_2", createdAt: T0 + 3 }));
      await store().insertSchedule(schedule("sch_old", { createdAt: T0 }));
      await store().insertSchedule(schedule("sch_recent", { createdAt: T0 + 4 }));
      await store().insertSchedule(schedule("sch_other", { sessionId: "ses_3", createdBy: "ses_2" }));
      await store().endSchedule({ id: "sch_old", reason: "unscheduled", at: T0 + 10 });
      await store().endSchedule({ id: "sch_recent", reason: "fired", at: T0 + 100 });

      expect(ids(await store().listSchedulesOf("ses_1", { endedSince: T0 + 50 }))).toEqual([
        "sch_own",
        "sch_created",
        "sch_for_me",
        "sch_recent",
      ]);
      expect(ids(await store().listSchedulesOf("ses_1", { endedSince: T0 + 10 }))).toEqual([
        "sch_old",
        "sch_own",
        "sch_created",
        "sch_for_me",
        "sch_recent",
      ]);
      expect(ids(await store().listSchedulesOf("ses_1", { endedSince: T0 + 101 }))).toEqual([
        "sch_own",
        "sch_created",
        "sch_for_me",
      ]);
      expect(ids(await store().listSchedulesOf("ses_3", { endedSince: T0 }))).toEqual(["sch_other"]);
      expect(await store().listSchedulesOf("ses_none", { endedSince: 0 })).toEqual([]);
    });

    it("counts the active schedules firing in a conversation, and those it created for others", async () => {
      await sessions("ses_1", "ses_2", "ses_3");
      await store().insertSchedule(schedule("sch_own_1"));
      await store().insertSchedule(schedule("sch_own_2"));
      await store().insertSchedule(schedule("sch_own_ended"));
      await store().insertSchedule(schedule("sch_for_2", { sessionId: "ses_2" }));
      await store().insertSchedule(schedule("sch_for_3", { sessionId: "ses_3" }));
      await store().insertSchedule(schedule("sch_for_3_ended", { sessionId: "ses_3" }));
      await store().insertSchedule(schedule("sch_from_2", { createdBy: "ses_2" }));
      await store().endSchedule({ id: "sch_own_ended", reason: "unscheduled", at: T0 });
      await store().endSchedule({ id: "sch_for_3_ended", reason: "unscheduled", at: T0 });

      expect(await store().countActive("ses_1")).toEqual({ firingIn: 3, createdForOthers: 2 });
      expect(await store().countActive("ses_2")).toEqual({ firingIn: 1, createdForOthers: 1 });
      expect(await store().countActive("ses_none")).toEqual({ firingIn: 0, createdForOthers: 0 });
    });

    it("claims the active schedules that are due, earliest first, up to the limit", async () => {
      await sessions("ses_1");
      await store().insertSchedule(schedule("sch_late", { nextFireAt: T0 + 30 }));
      await store().insertSchedule(schedule("sch_early", { nextFireAt: T0 + 10 }));
      await store().insertSchedule(schedule("sch_now", { nextFireAt: T0 + 20 }));
      await store().insertSchedule(schedule("sch_future", { nextFireAt: T0 + 21 }));
      await store().insertSchedule(schedule("sch_ended", { nextFireAt: T0 }));
      await store().insertSchedule(schedule("sch_undue", { nextFireAt: T0 }));
      await store().endSchedule({ id: "sch_ended", reason: "unscheduled", at: T0 });
      // An ended schedule is never claimed, even with a due time left on it.
      await store().updateSchedule("sch_ended", { dueAt: T0 });
      await store().updateSchedule("sch_undue", { dueAt: null });
      await store().updateSchedule("sch_late", { dueAt: T0 + 5 });

      expect(ids(await store().claimDueSchedules({ now: T0 + 20, limit: 10 }))).toEqual([
        "sch_late",
        "sch_early",
        "sch_now",
      ]);
      expect(ids(await store().claimDueSchedules({ now: T0 + 20, limit: 2 }))).toEqual([
        "sch_late",
        "sch_early",
      ]);
      expect(await store().claimDueSchedules({ now: T0 + 4, limit: 10 })).toEqual([]);
      const [claimed] = await store().claimDueSchedules({ now: T0 + 5, limit: 1 });
      expect(claimed).toEqual(await store().getSchedule("sch_late"));
    });

    it("records a slot once: the same schedule and slot again is refused, even under another id", async () => {
      await sessions("ses_1");
      await store().insertSchedule(schedule("sch_1"));
      await store().insertSchedule(schedule("sch_2"));
      expect(await store().recordFiring(firing("fir_1", { turnId: "trn_1" }))).toBe(true);
      expect(await store().recordFiring(firing("fir_1b", { outcome: "skipped" }))).toBe(false);
      expect(await store().recordFiring(firing("fir_2", { slot: T0 + 2 * HOUR, outcome: "skipped" }))).toBe(
        true,
      );
      expect(await store().recordFiring(firing("fir_3", { scheduleId: "sch_2" }))).toBe(true);

      expect(await store().listFirings("sch_1")).toEqual([
        firing("fir_1", { turnId: "trn_1" }),
        firing("fir_2", { slot: T0 + 2 * HOUR, outcome: "skipped" }),
      ]);
      expect(ids(await store().listFirings("sch_2"))).toEqual(["fir_3"]);
      expect(await store().listFirings("sch_none")).toEqual([]);
    });

    it("writes each timing field, null included, and leaves the others", async () => {
      await sessions("ses_1");
      await store().insertSchedule(schedule("sch_1"));
      await store().insertSchedule(schedule("sch_2"));
      await store().updateSchedule("sch_1", {
        nextFireAt: T0 + 2 * HOUR,
        lastFiredAt: T0 + HOUR,
        lastTurnId: "trn_9",
        firedCount: 1,
        skippedCount: 2,
        heldSince: T0 + HOUR + 1,
        dueAt: T0 + HOUR + 60_000,
      });
      const written = await store().getSchedule("sch_1");
      expect(written).toMatchObject({
        nextFireAt: T0 + 2 * HOUR,
        lastFiredAt: T0 + HOUR,
        lastTurnId: "trn_9",
        firedCount: 1,
        skippedCount: 2,
        heldSince: T0 + HOUR + 1,
        dueAt: T0 + HOUR + 60_000,
        endedAt: null,
        endReason: null,
        title: "Schedule sch_1",
      });

      await store().updateSchedule("sch_1", { heldSince: null, lastTurnId: null });
      expect(await store().getSchedule("sch_1")).toEqual({ ...written, heldSince: null, lastTurnId: null });
      await store().updateSchedule("sch_1", { lastFiredAt: null, dueAt: null, nextFireAt: null });
      expect(await store().getSchedule("sch_1")).toMatchObject({
        lastFiredAt: null,
        dueAt: null,
        nextFireAt: null,
        firedCount: 1,
      });
      await store().updateSchedule("sch_1", { endedAt: T0 + 3 * HOUR, endReason: "fired" });
      expect(await store().getSchedule("sch_1")).toMatchObject({
        endedAt: T0 + 3 * HOUR,
        endReason: "fired",
      });

      const untouched = await store().getSchedule("sch_2");
      await store().updateSchedule("sch_2", {});
      await store().updateSchedule("sch_none", { firedCount: 3 });
      expect(await store().getSchedule("sch_2")).toEqual(untouched);
      expect(await store().getSchedule("sch_none")).toBeNull();
    });

    it("ends an active schedule once: a second ending finds it ended and changes nothing", async () => {
      await sessions("ses_1");
      await store().insertSchedule(schedule("sch_1"));
      const ended = await store().endSchedule({ id: "sch_1", reason: "unscheduled", at: T0 + 10 });
      expect(ended).toMatchObject({
        endedAt: T0 + 10,
        endReason: "unscheduled",
        nextFireAt: null,
        dueAt: null,
      });
      expect(await store().getSchedule("sch_1")).toEqual(ended);
      expect(await store().endSchedule({ id: "sch_1", reason: "deleted", at: T0 + 20 })).toBeNull();
      expect(await store().getSchedule("sch_1")).toEqual(ended);
      expect(await store().endSchedule({ id: "sch_none", reason: "deleted", at: T0 })).toBeNull();
    });

    it("ends the active schedules firing in or created by some sessions, and returns them", async () => {
      await sessions("ses_1", "ses_2", "ses_3");
      await store().insertSchedule(schedule("sch_in", { createdAt: T0 + 1 }));
      await store().insertSchedule(
        schedule("sch_by", { sessionId: "ses_3", createdBy: "ses_2", createdAt: T0 }),
      );
      await store().insertSchedule(schedule("sch_ended"));
      await store().insertSchedule(schedule("sch_other", { sessionId: "ses_3", createdBy: "ses_3" }));
      await store().endSchedule({ id: "sch_ended", reason: "unscheduled", at: T0 + 5 });

      const ended = await store().endSchedulesOf({
        sessionIds: ["ses_1", "ses_2"],
        reason: "archived",
        at: T0 + 10,
      });
      expect(ids(ended).sort()).toEqual(["sch_by", "sch_in"]);
      for (const record of ended) {
        expect(record).toMatchObject({
          endedAt: T0 + 10,
          endReason: "archived",
          nextFireAt: null,
          dueAt: null,
        });
        expect(await store().getSchedule(record.id)).toEqual(record);
      }
      expect(await store().getSchedule("sch_ended")).toMatchObject({
        endedAt: T0 + 5,
        endReason: "unscheduled",
      });
      expect(await store().getSchedule("sch_other")).toMatchObject({ endedAt: null, dueAt: T0 + HOUR });
      expect(await store().endSchedulesOf({ sessionIds: ["ses_1"], reason: "deleted", at: T0 + 20 })).toEqual(
        [],
      );
      expect(await store().endSchedulesOf({ sessionIds: [], reason: "deleted", at: T0 + 20 })).toEqual([]);
    });

    it("moves a conversation's schedules to its successor, both the ones firing in it and the ones it created", async () => {
      await sessions("ses_1", "ses_2", "ses_new");
      await store().insertSchedule(schedule("sch_own"));
      await store().insertSchedule(schedule("sch_for_2", { sessionId: "ses_2" }));
      await store().insertSchedule(schedule("sch_from_2", { createdBy: "ses_2" }));
      await store().insertSchedule(schedule("sch_ended"));
      await store().insertSchedule(schedule("sch_untouched", { sessionId: "ses_2", createdBy: "ses_2" }));
      await store().endSchedule({ id: "sch_ended", reason: "fired", at: T0 + 1 });

      expect(await store().moveSchedules({ from: "ses_1", to: "ses_new" })).toBe(4);
      const where = async (id: string) => {
        const record = await store().getSchedule(id);
        return [record?.sessionId, record?.createdBy];
      };
      expect(await where("sch_own")).toEqual(["ses_new", "ses_new"]);
      expect(await where("sch_for_2")).toEqual(["ses_2", "ses_new"]);
      expect(await where("sch_from_2")).toEqual(["ses_new", "ses_2"]);
      expect(await where("sch_ended")).toEqual(["ses_new", "ses_new"]);
      expect(await where("sch_untouched")).toEqual(["ses_2", "ses_2"]);
      expect(await store().moveSchedules({ from: "ses_1", to: "ses_new" })).toBe(0);
    });

    it("makes the held schedules of one creator due at once, and no others", async () => {
      await sessions("ses_1", "ses_2");
      await store().insertSchedule(schedule("sch_held"));
      await store().insertSchedule(schedule("sch_held_for_2", { sessionId: "ses_2" }));
      await store().insertSchedule(schedule("sch_free"));
      await store().insertSchedule(schedule("sch_held_other", { sessionId: "ses_2", createdBy: "ses_2" }));
      await store().insertSchedule(schedule("sch_held_ended"));
      for (const id of ["sch_held", "sch_held_for_2", "sch_held_other", "sch_held_ended"]) {
        await store().updateSchedule(id, { heldSince: T0 + 10, dueAt: T0 + 10 + HOUR });
      }
      await store().endSchedule({ id: "sch_held_ended", reason: "unscheduled", at: T0 + 20 });

      expect(await store().recheckHeld({ createdBy: "ses_1", at: T0 + 30 })).toBe(2);
      expect(await store().getSchedule("sch_held")).toMatchObject({ dueAt: T0 + 30, heldSince: T0 + 10 });
      expect(await store().getSchedule("sch_held_for_2")).toMatchObject({ dueAt: T0 + 30 });
      expect(await store().getSchedule("sch_free")).toMatchObject({ dueAt: T0 + HOUR });
      expect(await store().getSchedule("sch_held_other")).toMatchObject({ dueAt: T0 + 10 + HOUR });
      expect(await store().getSchedule("sch_held_ended")).toMatchObject({ dueAt: null });
    });

    it("tells the earliest due time of an active schedule, or null", async () => {
      await sessions("ses_1");
      expect(await store().nextDueAt()).toBeNull();
      await store().insertSchedule(schedule("sch_a", { nextFireAt: T0 + 30 }));
      await store().insertSchedule(schedule("sch_b", { nextFireAt: T0 + 20 }));
      await store().insertSchedule(schedule("sch_ended", { nextFireAt: T0 + 5 }));
      await store().insertSchedule(schedule("sch_undue", { nextFireAt: T0 + 1 }));
      await store().endSchedule({ id: "sch_ended", reason: "unscheduled", at: T0 });
      await store().updateSchedule("sch_ended", { dueAt: T0 + 5 });
      await store().updateSchedule("sch_undue", { dueAt: null });
      expect(await store().nextDueAt()).toBe(T0 + 20);
      await store().updateSchedule("sch_a", { dueAt: T0 + 10 });
      expect(await store().nextDueAt()).toBe(T0 + 10);
    });
  });
}
