import type { ScheduleFiring, ScheduleRecord, ScheduleStore, ScheduleTimingPatch } from "@oar/engine";
import type { ScheduleEndReason } from "@oar/schema";
import { and, asc, count, eq, gte, isNotNull, isNull, lte, min, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../database";
import { scheduleFirings, schedules } from "../tables";
import { inList, mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type ScheduleRow = typeof schedules.$inferSelect;
type FiringRow = typeof scheduleFirings.$inferSelect;

function toScheduleRecord(row: ScheduleRow): ScheduleRecord {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    sessionId: row.sessionId,
    createdBy: row.createdBy,
    at: toMsOrNull(row.at),
    everyMinutes: row.everyMinutes,
    once: row.once,
    anchor: toMs(row.anchor),
    nextFireAt: toMsOrNull(row.nextFireAt),
    lastFiredAt: toMsOrNull(row.lastFiredAt),
    lastTurnId: row.lastTurnId,
    firedCount: row.firedCount,
    skippedCount: row.skippedCount,
    heldSince: toMsOrNull(row.heldSince),
    dueAt: toMsOrNull(row.dueAt),
    provenance: row.provenance ?? null,
    createdAt: toMs(row.createdAt),
    endedAt: toMsOrNull(row.endedAt),
    endReason: row.endReason,
  };
}

function toFiring(row: FiringRow): ScheduleFiring {
  return {
    id: row.id,
    scheduleId: row.scheduleId,
    slot: toMs(row.slot),
    outcome: row.status,
    turnId: row.turnId,
    at: toMs(row.createdAt),
  };
}

const instantOrNull = (ms: number | null | undefined) =>
  ms === undefined ? undefined : ms === null ? null : toDate(ms);

/** The columns a timing patch sets; a field left undefined is not touched. */
function timingColumns(patch: ScheduleTimingPatch): Partial<typeof schedules.$inferInsert> {
  const set: Partial<typeof schedules.$inferInsert> = {
    nextFireAt: instantOrNull(patch.nextFireAt),
    lastFiredAt: instantOrNull(patch.lastFiredAt),
    lastTurnId: patch.lastTurnId,
    firedCount: patch.firedCount,
    skippedCount: patch.skippedCount,
    heldSince: instantOrNull(patch.heldSince),
    dueAt: instantOrNull(patch.dueAt),
    endedAt: instantOrNull(patch.endedAt),
    endReason: patch.endReason,
  };
  return Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined));
}

const ACTIVE = isNull(schedules.endedAt);
const oldestFirst = [asc(schedules.createdAt), asc(schedules.id)];

/** The channel a process NOTIFYs after it changed schedules, so the others look again at once. */
export const SCHEDULES_CHANNEL = "oar_schedules";

/** Tells the other processes LISTENing on SCHEDULES_CHANNEL (at commit, inside a transaction). */
export async function announceScheduleChanges(db: Database): Promise<void> {
  await db.execute(sql`select pg_notify(${SCHEDULES_CHANNEL}::text, '')`);
}

export function createScheduleStore(db: Database): ScheduleStore {
  /** Ends the active schedules `where` picks: no next slot, nothing due (R-SCHEND-01). */
  const endWhere = async (where: SQL | undefined, reason: ScheduleEndReason, at: number) => {
    const rows = await db
      .update(schedules)
      .set({ endedAt: toDate(at), endReason: reason, nextFireAt: null, dueAt: null })
      .where(and(ACTIVE, where))
      .returning();
    return rows.map(toScheduleRecord).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  };

  return {
    async insertSchedule(input) {
      const [row] = await db
        .insert(schedules)
        .values({
          id: input.id,
          title: input.title,
          text: input.text,
          sessionId: input.sessionId,
          createdBy: input.createdBy,
          at: instantOrNull(input.at),
          everyMinutes: input.everyMinutes,
          once: input.once,
          anchor: toDate(input.anchor),
          nextFireAt: toDate(input.nextFireAt),
          dueAt: toDate(input.nextFireAt),
          provenance: input.provenance,
          createdAt: toDate(input.createdAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting schedule ${input.id} returned no row.`);
      }
      return toScheduleRecord(row);
    },

    async getSchedule(id) {
      return mapFirst(await db.select().from(schedules).where(eq(schedules.id, id)), toScheduleRecord);
    },

    async listSchedulesOf(conversation, { endedSince }) {
      const rows = await db
        .select()
        .from(schedules)
        .where(
          and(
            or(eq(schedules.sessionId, conversation), eq(schedules.createdBy, conversation)),
            or(ACTIVE, gte(schedules.endedAt, toDate(endedSince))),
          ),
        )
        .orderBy(...oldestFirst);
      return rows.map(toScheduleRecord);
    },

    async countActive(conversation) {
      const [row] = await db
        .select({
          firingIn: count(sql`case when ${schedules.sessionId} = ${conversation} then 1 end`),
          createdForOthers: count(
            sql`case when ${schedules.createdBy} = ${conversation} and ${schedules.sessionId} <> ${conversation} then 1 end`,
          ),
        })
        .from(schedules)
        .where(and(ACTIVE, or(eq(schedules.sessionId, conversation), eq(schedules.createdBy, conversation))));
      return { firingIn: row?.firingIn ?? 0, createdForOthers: row?.createdForOthers ?? 0 };
    },

    async claimDueSchedules({ now, limit }) {
      if (limit <= 0) {
        return [];
      }
      // Another transaction's claimed rows are skipped, not waited for: two relay processes
      // firing at once each take their own schedules (DESIGN §9).
      const rows = await db
        .select()
        .from(schedules)
        .where(and(ACTIVE, isNotNull(schedules.dueAt), lte(schedules.dueAt, toDate(now))))
        .orderBy(asc(schedules.dueAt), asc(schedules.id))
        .limit(limit)
        .for("update", { skipLocked: true });
      return rows.map(toScheduleRecord);
    },

    async recordFiring(firing) {
      const rows = await db
        .insert(scheduleFirings)
        .values({
          id: firing.id,
          scheduleId: firing.scheduleId,
          slot: toDate(firing.slot),
          status: firing.outcome,
          turnId: firing.turnId,
          createdAt: toDate(firing.at),
        })
        .onConflictDoNothing({ target: [scheduleFirings.scheduleId, scheduleFirings.slot] })
        .returning({ id: scheduleFirings.id });
      return rows.length > 0;
    },

    async listFirings(scheduleId) {
      const rows = await db
        .select()
        .from(scheduleFirings)
        .where(eq(scheduleFirings.scheduleId, scheduleId))
        .orderBy(asc(scheduleFirings.slot));
      return rows.map(toFiring);
    },

    async updateSchedule(id, patch) {
      const set = timingColumns(patch);
      if (Object.keys(set).length === 0) {
        return;
      }
      await db.update(schedules).set(set).where(eq(schedules.id, id));
    },

    async endSchedule({ id, reason, at }) {
      const [ended] = await endWhere(eq(schedules.id, id), reason, at);
      return ended ?? null;
    },

    async endSchedulesOf({ sessionIds, reason, at }) {
      if (sessionIds.length === 0) {
        return [];
      }
      return endWhere(
        or(inList(schedules.sessionId, sessionIds), inList(schedules.createdBy, sessionIds)),
        reason,
        at,
      );
    },

    async moveSchedules({ from, to }) {
      // One statement, so a schedule that fires in `from` and was created by it counts once.
      const rows = await db
        .update(schedules)
        .set({
          sessionId: sql`case when ${schedules.sessionId} = ${from} then ${to} else ${schedules.sessionId} end`,
          createdBy: sql`case when ${schedules.createdBy} = ${from} then ${to} else ${schedules.createdBy} end`,
        })
        .where(or(eq(schedules.sessionId, from), eq(schedules.createdBy, from)))
        .returning({ id: schedules.id });
      return rows.length;
    },

    async recheckHeld({ createdBy, at }) {
      const rows = await db
        .update(schedules)
        .set({ dueAt: toDate(at) })
        .where(and(ACTIVE, eq(schedules.createdBy, createdBy), isNotNull(schedules.heldSince)))
        .returning({ id: schedules.id });
      return rows.length;
    },

    async nextDueAt() {
      const [row] = await db
        .select({ at: min(schedules.dueAt) })
        .from(schedules)
        .where(ACTIVE);
      return row?.at ? toMs(row.at) : null;
    },
  };
}
