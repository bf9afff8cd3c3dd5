import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { ScheduleFiring, ScheduleRecord, ScheduleStore } from "../ports/schedule-store";

/** The memory schedules, with their rows for the memory retention store to prune. */
export interface MemoryScheduleStore extends ScheduleStore, Snapshotting {
  readonly rows: {
    readonly schedules: ReadonlyMap<string, ScheduleRecord>;
    /** Keyed by `${scheduleId} ${slot}`. */
    readonly firings: Map<string, ScheduleFiring>;
  };
}

/** In-memory ScheduleStore for tests; it passes the same contract suite as @oar/storage. */
export function createMemoryScheduleStore(): MemoryScheduleStore {
  const schedules = new Map<string, ScheduleRecord>();
  // Keyed by `${scheduleId} ${slot}`, the idempotency key of a firing.
  const firings = new Map<string, ScheduleFiring>();
  const oldestFirst = (list: ScheduleRecord[]) =>
    list.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const active = () => [...schedules.values()].filter((schedule) => schedule.endedAt === null);
  const ending = (schedule: ScheduleRecord, reason: ScheduleRecord["endReason"], at: number) => {
    const ended: ScheduleRecord = {
      ...schedule,
      endedAt: at,
      endReason: reason,
      nextFireAt: null,
      dueAt: null,
    };
    schedules.set(ended.id, ended);
    return ended;
  };
  return refusingLikePostgres("ScheduleStore", {
    rows: { schedules, firings },
    snapshot: () => snapshotOf(schedules, firings),
    async insertSchedule(input) {
      if (schedules.has(input.id)) {
        throw new Error(`A schedule ${input.id} is already stored.`);
      }
      const record: ScheduleRecord = {
        ...input,
        lastFiredAt: null,
        lastTurnId: null,
        firedCount: 0,
        skippedCount: 0,
        heldSince: null,
        dueAt: input.nextFireAt,
        endedAt: null,
        endReason: null,
      };
      schedules.set(record.id, record);
      return record;
    },
    async getSchedule(id) {
      return schedules.get(id) ?? null;
    },
    async listSchedulesOf(conversation, { endedSince }) {
      return oldestFirst(
        [...schedules.values()].filter(
          (schedule) =>
            (schedule.sessionId === conversation || schedule.createdBy === conversation) &&
            (schedule.endedAt === null || schedule.endedAt >= endedSince),
        ),
      );
    },
    async countActive(conversation) {
      const mine = active();
      return {
        firingIn: mine.filter((schedule) => schedule.sessionId === conversation).length,
        createdForOthers: mine.filter(
          (schedule) => schedule.createdBy === conversation && schedule.sessionId !== conversation,
        ).length,
      };
    },
    async claimDueSchedules({ now, limit }) {
      return active()
        .filter((schedule) => schedule.dueAt !== null && schedule.dueAt <= now)
        .sort((a, b) => (a.dueAt ?? 0) - (b.dueAt ?? 0) || a.id.localeCompare(b.id))
        .slice(0, limit);
    },
    async recordFiring(firing) {
      const key = `${firing.scheduleId} ${firing.slot}`;
      if (firings.has(key)) {
        return false;
      }
      if ([...firings.values()].some((recorded) => recorded.id === firing.id)) {
        throw new Error(`A firing ${firing.id} is already stored.`);
      }
      firings.set(key, { ...firing });
      return true;
    },
    async listFirings(scheduleId) {
      return [...firings.values()]
        .filter((firing) => firing.scheduleId === scheduleId)
        .sort((a, b) => a.slot - b.slot);
    },
    async updateSchedule(id, patch) {
      const schedule = schedules.get(id);
      if (schedule) {
        const defined = Object.entries(patch).filter(([, value]) => value !== undefined);
        schedules.set(id, { ...schedule, ...Object.fromEntries(defined) });
      }
    },
    async endSchedule({ id, reason, at }) {
      const schedule = schedules.get(id);
      return schedule === undefined || schedule.endedAt !== null ? null : ending(schedule, reason, at);
    },
    async endSchedulesOf({ sessionIds, reason, at }) {
      const wanted = new Set(sessionIds);
      return oldestFirst(
        active().filter((schedule) => wanted.has(schedule.sessionId) || wanted.has(schedule.createdBy)),
      ).map((schedule) => ending(schedule, reason, at));
    },
    async moveSchedules({ from, to }) {
      let moved = 0;
      for (const schedule of schedules.values()) {
        if (schedule.sessionId === from || schedule.createdBy === from) {
          schedules.set(schedule.id, {
            ...schedule,
            sessionId: schedule.sessionId === from ? to : schedule.sessionId,
            createdBy: schedule.createdBy === from ? to : schedule.createdBy,
          });
          moved++;
        }
      }
      return moved;
    },
    async recheckHeld({ createdBy, at }) {
      let rechecked = 0;
      for (const schedule of active()) {
        if (schedule.createdBy === createdBy && schedule.heldSince !== null) {
          schedules.set(schedule.id, { ...schedule, dueAt: at });
          rechecked++;
        }
      }
      return rechecked;
    },
    async nextDueAt() {
      const due = active().flatMap((schedule) => (schedule.dueAt === null ? [] : [schedule.dueAt]));
      return due.length === 0 ? null : Math.min(...due);
    },
  });
}
