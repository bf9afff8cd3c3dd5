import type { CallOf } from "@oar/schema";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { refuse } from "../refusal";

/** §33.5: ends a schedule that fires in this conversation or that it created (R-UNSCH-01). */
export async function unschedule(ctx: ActionContext, call: CallOf<"unschedule">): Promise<ActionSuccess> {
  const { stores, clock, relay } = ctx.deps;
  const id = call.schedule_id;
  const found = await stores.schedules.getSchedule(id);
  if (found === null || (found.sessionId !== ctx.callerId && found.createdBy !== ctx.callerId)) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `No schedule "${id}" fires in this conversation or was created by it on relay "${relay.name}". list_schedules shows them.`,
    );
  }
  if (found.endedAt !== null) {
    return {
      details: `${id} had already ended (${found.endReason ?? "ended"})`,
      fields: { schedule_id: id, ended: true },
      notes: [`Schedule ${id} had already ended (${found.endReason ?? "ended"}); nothing changed.`],
    };
  }
  await ctx.gate(call);
  const ended = await changeAtomically(ctx, (tx) =>
    tx.deps.stores.schedules.endSchedule({ id, reason: "unscheduled", at: clock.now() }),
  );
  return {
    details: `${id} ended`,
    fields: { schedule_id: id, ended: true },
    ...(ended === null ? { notes: [`Schedule ${id} had already ended; nothing changed.`] } : {}),
  };
}
