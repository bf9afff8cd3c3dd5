import type { CallOf } from "@oar/schema";
import { scheduleEntry, sessionTitles } from "../../schedules/schedule-views";
import type { ActionContext, ActionSuccess } from "../context";
import { plural } from "../summary";

/** R-LSCH-01: ended schedules stay listed for an hour. */
export const ENDED_SCHEDULES_SHOWN_MS = 3_600_000;

/** §33.4: the schedules that fire in this conversation or that it created. */
export async function listSchedules(
  ctx: ActionContext,
  _call: CallOf<"list_schedules">,
): Promise<ActionSuccess> {
  const { stores, clock } = ctx.deps;
  const schedules = await stores.schedules.listSchedulesOf(ctx.callerId, {
    endedSince: clock.now() - ENDED_SCHEDULES_SHOWN_MS,
  });
  const titles = await sessionTitles(stores, schedules);
  const entries = schedules.map((s) => scheduleEntry(s, titles));
  const active = schedules.filter((s) => s.endedAt === null).length;
  const held = schedules.filter((s) => s.endedAt === null && s.heldSince !== null).length;
  const ended = schedules.length - active;
  return {
    details: [
      plural(active, "active schedule"),
      ...(held > 0 ? [`${held} held for approval`] : []),
      ...(ended > 0 ? [`${ended} ended`] : []),
    ].join(", "),
    fields: { schedules: entries },
  };
}
