import type { CallOf } from "@oar/schema";
import { runningTasksOf } from "../tasks/session-state";
import type { ActionContext, ActionSuccess } from "./context";
import { gated } from "./gated";
import { refuseSelf, requireSession } from "./sessions";

/**
 * §21: stops the turn running in the session, as Stop does, and its background tasks; says whether
 * anything was running (R-STOP-02).
 */
export async function stop(ctx: ActionContext, call: CallOf<"stop">): Promise<ActionSuccess> {
  refuseSelf(ctx, "stop", call.session);
  const session = await requireSession(ctx, call.session, { allowArchived: true });
  // Nothing running (no turn, no background task): nothing to stop, nothing to ask.
  const running =
    ctx.runtime.inFlight(session.id) !== null ||
    (await runningTasksOf(ctx.deps.stores, session.id)).length > 0;
  const stopRequested =
    running && (await gated(ctx, call, session)) && (await ctx.runtime.stopTurn(session.id));
  return {
    session: session.id,
    details: stopRequested ? "stop requested" : "nothing was running",
    fields: { session: session.id, stopRequested },
  };
}
