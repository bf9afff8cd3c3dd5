import type { CardDetails } from "@oar/permissions";
import type { RelayToolCall } from "@oar/schema";
import type { SessionRecord } from "../ports/session-store";
import type { ActionContext } from "./context";
import { startedByCaller } from "./sessions";

/** Passes the call's gate with the session it acts on (and the card's detail lines) as the facts; true once it may go on. */
export async function gated(
  ctx: ActionContext,
  call: RelayToolCall,
  session: SessionRecord,
  details?: CardDetails,
): Promise<true> {
  await ctx.gate(call, {
    target: {
      id: session.id,
      title: session.title,
      startedByCaller: startedByCaller(ctx, session),
      busy: ctx.runtime.inFlight(session.id) !== null,
    },
    ...(details === undefined ? {} : { details }),
  });
  return true;
}
