import { activeSessionsRule, oneLevelRule } from "@oar/permissions";
import type { SessionRecord } from "../ports/session-store";
import type { ActionContext, CallerContext } from "./context";
import { enforce } from "./refusal";
import { startedByCaller } from "./sessions";

/**
 * R-LOCAL-03: a session an agent started creates no sessions unless the owner set
 * `mayCreateSessions`. The rule limits the caller, so the caller's relay applies it, wherever
 * the session would start: another relay's agent was checked by its own relay.
 */
export function refuseSecondLevel(ctx: CallerContext): void {
  if (ctx.from.relay === null) {
    enforce(oneLevelRule(ctx.caller));
  }
}

/**
 * R-LOCAL-01/02: at most 4 sessions on this relay started by this conversation may have a turn
 * queued or running. `target` is an existing session a prompt would wake (send); it counts only
 * when it is one of the caller's sessions and is not already at work. The page states the limit
 * for this relay's own conversations: another relay's agent is not counted here.
 */
export async function refuseFifthActive(
  ctx: ActionContext,
  options: { readonly target?: SessionRecord },
): Promise<void> {
  if (ctx.from.relay !== null) {
    return;
  }
  const { sessions } = ctx.deps.stores;
  const { target } = options;
  const mine = target !== undefined && startedByCaller(ctx, target);
  const busy = mine && (await sessions.listActiveTurns({ sessionId: target.id })).length > 0;
  if (target !== undefined && (!mine || busy)) {
    return;
  }
  const active = await sessions.countActiveSessionsCreatedBy({ relay: null, session: ctx.callerId });
  enforce(
    activeSessionsRule({
      active,
      woken: target === undefined ? { kind: "new" } : { kind: "existing", startedByCaller: mine, busy },
    }),
  );
}
