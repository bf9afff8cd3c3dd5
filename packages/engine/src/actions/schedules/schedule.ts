import { slotAfter } from "@oar/scheduler";
import { type CallOf, LIMITS } from "@oar/schema";
import type { ScheduleRecord, ScheduleStore } from "../../ports/schedule-store";
import { scheduleTiming, scheduleView } from "../../schedules/schedule-views";
import { countPrompt } from "../approvals";
import { type ActionSuccess, type CallerContext, changeAtomically } from "../context";
import { gated } from "../gated";
import { refuse } from "../refusal";
import { callerProvenance, requireSession } from "../sessions";

const MINUTE_MS = 60_000;
const NOTHING = "Nothing was scheduled.";

/** R-SCHEND-03: 20 firing in the target, and 20 created by the caller for other sessions. */
async function refuseOverLimit(schedules: ScheduleStore, caller: string, target: string): Promise<void> {
  const limit = LIMITS.schedulesPerConversation;
  const [mine, theirs] = await Promise.all([
    schedules.countActive(caller),
    target === caller ? undefined : schedules.countActive(target),
  ]);
  if (target !== caller && mine.createdForOthers >= limit) {
    refuse(
      "REMOTE_RELAY_SCHEDULE_LIMIT",
      `This conversation has already created ${mine.createdForOthers} active schedules for other sessions, the most it may (${limit}, R-SCHEND-03). End one with unschedule; list_schedules shows them. ${NOTHING}`,
    );
  }
  const firing = theirs ?? mine;
  if (firing.firingIn >= limit) {
    const whose = target === caller ? "This conversation" : `Session ${target}`;
    refuse(
      "REMOTE_RELAY_SCHEDULE_LIMIT",
      `${whose} already has ${firing.firingIn} active schedules firing in it, the most a conversation may hold (${limit}, R-SCHEND-03). End one with unschedule; list_schedules shows them. ${NOTHING}`,
    );
  }
}

/**
 * GAP-18: the first slot and when it fires. Only `at` fires once at `at`, which must be ahead;
 * only every_minutes first fires one interval from now; both fire at `at`, then on that grid — a
 * grid that began in the past fires next at its first slot after now.
 */
function timing(call: CallOf<"schedule">, now: number) {
  const at = call.at === undefined ? null : Date.parse(call.at);
  const every = call.every_minutes ?? null;
  if (at !== null && every === null && at <= now) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `at: ${call.at} has passed (now ${new Date(now).toISOString()}); a one-time schedule needs a time ahead. ${NOTHING}`,
    );
  }
  const anchor = at ?? now + (every ?? 0) * MINUTE_MS;
  const nextFireAt = at !== null && at <= now && every !== null ? slotAfter(anchor, every, now) : anchor;
  return { at, everyMinutes: every, once: every === null, anchor, nextFireAt };
}

/**
 * §33.2: a durable prompt later, in this conversation or (R-SCH-15) another session of this
 * relay. The checks of a send for another session (R-SCH-16), the anti-loop count at creation
 * (R-SCH-17), the limits (R-SCHEND-03); the schedule and the count are one change.
 */
export async function schedule(ctx: CallerContext, call: CallOf<"schedule">): Promise<ActionSuccess> {
  const { stores, clock, ids } = ctx.deps;
  const targetId = call.session ?? ctx.callerId;
  const target =
    targetId === ctx.callerId
      ? undefined
      : await requireSession(ctx, targetId, { allowArchived: false, nothing: NOTHING });
  const when = timing(call, clock.now());
  await refuseOverLimit(stores.schedules, ctx.callerId, targetId);
  if (target !== undefined) {
    await gated(ctx, call, target);
  } else {
    await ctx.gate(call);
  }
  const provenance = await callerProvenance(ctx);
  const created: ScheduleRecord = await changeAtomically(ctx, async (tx) => {
    // Counted again inside the change: two calls at once cannot both take the 20th place.
    await refuseOverLimit(tx.deps.stores.schedules, ctx.callerId, targetId);
    const record = await tx.deps.stores.schedules.insertSchedule({
      id: ids.next("schedule"),
      title: call.title,
      text: call.text,
      sessionId: targetId,
      createdBy: ctx.callerId,
      ...when,
      provenance,
      createdAt: clock.now(),
    });
    await countPrompt(tx, call);
    return record;
  });
  ctx.live.scheduleChanges.notify();
  const session = target === undefined ? undefined : { id: target.id, title: target.title };
  return {
    ...(target === undefined ? {} : { session: target.id }),
    details: `${scheduleTiming(created)} (${created.id})`,
    fields: { schedule_id: created.id, schedule: scheduleView(created, session) },
  };
}
