import { RelayError } from "@oar/core";
import type { ScheduleEntry } from "@oar/schema";
import { scheduleEntry, sessionTitles } from "../schedules/schedule-views";
import { type OwnerContext, ownerChange } from "./owner-context";

/** POST /v1/owner/schedules/:id/cancel: Cancel in the ⏰ list (R-SCHEND-01); an ended one stays as it ended. */
export async function cancelOwnerSchedule(ctx: OwnerContext, id: string): Promise<ScheduleEntry> {
  const { stores, clock } = ctx.deps;
  const found = await stores.schedules.getSchedule(id);
  if (found === null) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No schedule ${id} on this relay.`);
  }
  const ended =
    found.endedAt === null
      ? await ownerChange(ctx, (tx) =>
          tx.deps.stores.schedules.endSchedule({ id, reason: "unscheduled", at: clock.now() }),
        )
      : null;
  const schedule = ended ?? (await stores.schedules.getSchedule(id)) ?? found;
  return scheduleEntry(schedule, await sessionTitles(stores, [schedule]));
}
