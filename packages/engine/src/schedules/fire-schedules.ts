import { scheduleFiring } from "@oar/permissions";
import { scheduleMessage, slotToFire } from "@oar/scheduler";
import type { ScheduleRecord, ScheduleTimingPatch } from "../ports/schedule-store";
import type { SessionRecord } from "../ports/session-store";
import type { SendingContext } from "../watching/sending";

/** Schedules claimed per transaction. */
export const FIRED_PER_PASS = 100;
/** R-SCH-19: a held firing is looked at again every minute. */
export const HELD_RECHECK_MS = 60_000;

/** What a pass works with, as a send to watchers does: a session driven from outside gets the message, no turn. */
export type FiringContext = SendingContext;

/**
 * What one pass did: the sessions whose queues to kick once committed, the slots it fired (to
 * tell how late, once committed), and whether more may be due.
 */
export interface FiringPass {
  readonly kick: readonly string[];
  readonly fired: readonly number[];
  readonly more: boolean;
}

type Outcome =
  | {
      readonly kind: "fire";
      readonly slot: number;
      readonly passedOver: number;
      readonly next: number | undefined;
    }
  | { readonly kind: "skip"; readonly slot: number; readonly passedOver: number; readonly next: number }
  | { readonly kind: "hold" }
  | { readonly kind: "gone"; readonly reason: "archived" | "deleted" }
  | { readonly kind: "early" };

/**
 * What a claimed schedule does now: its session gone ends it; a repetition whose previous message
 * still waits in the queue is skipped (R-SCH-12); a schedule for another session past the
 * anti-loop count is held (R-SCH-18); otherwise it fires its slot.
 */
async function decide(
  ctx: FiringContext,
  schedule: ScheduleRecord,
  target: SessionRecord | undefined,
  loopCount: number,
): Promise<Outcome> {
  if (target === undefined || target.archivedAt !== null) {
    return { kind: "gone", reason: target === undefined ? "deleted" : "archived" };
  }
  const due = slotToFire(
    {
      anchor: schedule.anchor,
      ...(schedule.everyMinutes === null ? {} : { everyMinutes: schedule.everyMinutes }),
      nextFireAt: schedule.nextFireAt ?? schedule.anchor,
    },
    ctx.now,
  );
  if (due === undefined) {
    return { kind: "early" };
  }
  if (due.next !== undefined && schedule.lastTurnId !== null) {
    const last = await ctx.stores.sessions.getTurn(schedule.lastTurnId);
    if (last?.status === "queued") {
      return { kind: "skip", slot: due.slot, passedOver: due.passedOver, next: due.next };
    }
  }
  const forOtherSession = schedule.sessionId !== schedule.createdBy;
  if (scheduleFiring({ count: loopCount, forOtherSession }) === "hold") {
    return { kind: "hold" };
  }
  return { kind: "fire", ...due };
}

/**
 * Writes a firing: its slot (the idempotency key), the message and its turn, the count, the
 * timing. Gives the session whose queue to kick (`null`: none), or `undefined` when the slot went
 * out before and nothing fired now.
 */
async function fire(
  ctx: FiringContext,
  schedule: ScheduleRecord,
  target: SessionRecord,
  setBy: SessionRecord | undefined,
  due: Extract<Outcome, { kind: "fire" }>,
): Promise<string | null | undefined> {
  const { stores, ids, now } = ctx;
  const startsTurn = !ctx.drivenFromOutside(target.provider);
  const turnId = startsTurn ? ids.next("turn") : null;
  const recorded = await stores.schedules.recordFiring({
    id: ids.next("firing"),
    scheduleId: schedule.id,
    slot: due.slot,
    outcome: "fired",
    turnId,
    at: now,
  });
  const timing: ScheduleTimingPatch = {
    nextFireAt: due.next ?? null,
    dueAt: due.next ?? null,
    heldSince: null,
    ...(due.next === undefined ? { endedAt: now, endReason: "fired" as const } : {}),
  };
  if (!recorded) {
    // The slot went out before (a crash between its commit and this claim cannot happen in one
    // transaction, but a repaired row might): the grid moves on, nothing is sent twice.
    await stores.schedules.updateSchedule(schedule.id, timing);
    return undefined;
  }
  const messageId = ids.next("message");
  const provenance = schedule.provenance ?? undefined;
  await stores.sessions.appendMessage({
    id: messageId,
    sessionId: target.id,
    turnId,
    role: "relay",
    text: scheduleMessage({
      id: schedule.id,
      title: schedule.title,
      everyMinutes: schedule.everyMinutes,
      text: schedule.text,
      ...(schedule.createdBy === target.id
        ? {}
        : { setBy: { id: schedule.createdBy, title: setBy?.title ?? schedule.createdBy } }),
    }),
    provenance: provenance ?? null,
    createdAt: now,
  });
  if (turnId !== null) {
    // R-SCH-08: no mode in the origin: the turn runs in the target session's own mode.
    await stores.sessions.enqueueTurn({
      id: turnId,
      sessionId: target.id,
      promptMessageId: messageId,
      origin: { kind: "schedule", scheduleId: schedule.id, ...(provenance ? { provenance } : {}) },
      queuedAt: now,
    });
  }
  if (schedule.sessionId !== schedule.createdBy) {
    // R-SCH-17, R-SCH-20: each firing for another session counts toward the anti-loop guard.
    await stores.loopCounters.incrementLoopCounter(schedule.createdBy);
  }
  await stores.schedules.updateSchedule(schedule.id, {
    ...timing,
    lastFiredAt: now,
    lastTurnId: turnId,
    firedCount: schedule.firedCount + 1,
    ...(due.passedOver > 0 ? { skippedCount: schedule.skippedCount + due.passedOver } : {}),
  });
  return turnId === null ? null : target.id;
}

/**
 * One pass, inside the caller's transaction: claims the schedules due at `now` (FOR UPDATE SKIP
 * LOCKED, so another relay process takes others) and does what each must. The slot is recorded
 * with the message in the same transaction: a crash before the commit leaves it due, after it
 * the slot is taken — never fired twice, never lost (DESIGN §3, §9).
 */
export async function fireDueSchedules(ctx: FiringContext): Promise<FiringPass> {
  const { stores, now } = ctx;
  const claimed = await stores.schedules.claimDueSchedules({ now, limit: FIRED_PER_PASS });
  if (claimed.length === 0) {
    return { kick: [], fired: [], more: false };
  }
  const sessionIds = [...new Set(claimed.flatMap((s) => [s.sessionId, s.createdBy]))];
  const sessions = new Map((await stores.sessions.getSessions(sessionIds)).map((s) => [s.id, s]));
  const creators = [...new Set(claimed.filter((s) => s.sessionId !== s.createdBy).map((s) => s.createdBy))];
  const counts = new Map(
    await Promise.all(
      creators.map(async (id) => [id, await stores.loopCounters.getLoopCounter(id)] as const),
    ),
  );
  const kick = new Set<string>();
  const fired: number[] = [];
  for (const schedule of claimed) {
    const target = sessions.get(schedule.sessionId);
    const outcome = await decide(ctx, schedule, target, counts.get(schedule.createdBy) ?? 0);
    switch (outcome.kind) {
      case "gone":
        await stores.schedules.endSchedule({ id: schedule.id, reason: outcome.reason, at: now });
        break;
      case "early":
        // Held and re-checked before its slot came (a release): it waits for its slot.
        await stores.schedules.updateSchedule(schedule.id, { dueAt: schedule.nextFireAt, heldSince: null });
        break;
      case "hold":
        await stores.schedules.updateSchedule(schedule.id, {
          heldSince: schedule.heldSince ?? now,
          dueAt: now + HELD_RECHECK_MS,
        });
        break;
      case "skip":
        await stores.schedules.recordFiring({
          id: ctx.ids.next("firing"),
          scheduleId: schedule.id,
          slot: outcome.slot,
          outcome: "skipped",
          turnId: null,
          at: now,
        });
        await stores.schedules.updateSchedule(schedule.id, {
          nextFireAt: outcome.next,
          dueAt: outcome.next,
          heldSince: null,
          skippedCount: schedule.skippedCount + 1 + outcome.passedOver,
        });
        break;
      case "fire": {
        const kicked = await fire(
          ctx,
          schedule,
          target as SessionRecord,
          sessions.get(schedule.createdBy),
          outcome,
        );
        if (kicked !== undefined) {
          fired.push(outcome.slot);
        }
        if (typeof kicked === "string") {
          kick.add(kicked);
        }
        if (schedule.sessionId !== schedule.createdBy) {
          counts.set(schedule.createdBy, (counts.get(schedule.createdBy) ?? 0) + 1);
        }
        break;
      }
    }
  }
  return { kick: [...kick], fired, more: claimed.length === FIRED_PER_PASS };
}
