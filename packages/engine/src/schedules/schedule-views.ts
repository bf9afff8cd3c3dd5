import { toIso } from "@oar/core";
import type { Schedule, ScheduleEntry, SessionRef } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
import type { ScheduleRecord } from "../ports/schedule-store";

/** How much of a schedule's text its listing shows (R-LSCH-02: "the beginning of its text"). */
export const TEXT_SHOWN_CHARS = 200;

function beginning(text: string): string {
  return text.length <= TEXT_SHOWN_CHARS ? text : `${text.slice(0, TEXT_SHOWN_CHARS - 1)}…`;
}

/** `every 1440 min, next 2026-11-02T02:00:00.000Z` or `once at …` (R-SCH-06's summary). */
export function scheduleTiming(schedule: ScheduleRecord): string {
  const next = schedule.nextFireAt === null ? "none" : toIso(schedule.nextFireAt);
  return schedule.everyMinutes === null
    ? `once at ${next}`
    : `every ${schedule.everyMinutes} min, next ${next}`;
}

/** The schedule as `schedule` returns it (R-SCH-06); `session` when it fires in another session. */
export function scheduleView(schedule: ScheduleRecord, session?: SessionRef): Schedule {
  return {
    id: schedule.id,
    title: schedule.title,
    ...(schedule.at === null ? {} : { at: toIso(schedule.at) }),
    everyMinutes: schedule.everyMinutes,
    once: schedule.once,
    nextFireAt: schedule.nextFireAt === null ? null : toIso(schedule.nextFireAt),
    ...(session === undefined ? {} : { session }),
  };
}

/** A schedule as list_schedules shows it (R-LSCH-02). */
export function scheduleEntry(schedule: ScheduleRecord, titles: ReadonlyMap<string, string>): ScheduleEntry {
  const ref = (id: string): SessionRef => ({ id, title: titles.get(id) ?? "" });
  return {
    id: schedule.id,
    session: ref(schedule.sessionId),
    ...(schedule.createdBy === schedule.sessionId ? {} : { setBy: ref(schedule.createdBy) }),
    title: schedule.title,
    text: beginning(schedule.text),
    at: schedule.at === null ? null : toIso(schedule.at),
    everyMinutes: schedule.everyMinutes,
    once: schedule.once,
    nextFireAt: schedule.nextFireAt === null ? null : toIso(schedule.nextFireAt),
    lastFiredAt: schedule.lastFiredAt === null ? null : toIso(schedule.lastFiredAt),
    firedCount: schedule.firedCount,
    ...(schedule.skippedCount > 0 ? { skippedCount: schedule.skippedCount } : {}),
    ...(schedule.heldSince === null ? {} : { heldForApproval: true, heldSince: toIso(schedule.heldSince) }),
    ...(schedule.endReason === null ? {} : { endReason: schedule.endReason }),
    ...(schedule.endedAt === null ? {} : { endedAt: toIso(schedule.endedAt) }),
  };
}

/** The titles of the sessions these schedules name (archived and deleted ones included where the store has them). */
export async function sessionTitles(
  stores: Pick<EngineStores, "sessions">,
  schedules: readonly ScheduleRecord[],
): Promise<Map<string, string>> {
  const ids = [...new Set(schedules.flatMap((s) => [s.sessionId, s.createdBy]))];
  const sessions = await stores.sessions.getSessions(ids);
  return new Map(sessions.map((s) => [s.id, s.title]));
}
