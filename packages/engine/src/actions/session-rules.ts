import { LIMITS } from "@oar/schema";
import type { SessionRecord } from "../ports/session-store";
import type { ActionContext, CallerContext } from "./context";
import { refuse } from "./refusal";
import { startedByCaller } from "./sessions";

/** R-LOCAL-03: a session an agent started creates no sessions unless the owner set `mayCreateSessions`. */
export function refuseSecondLevel(ctx: CallerContext): void {
  const { caller } = ctx;
  if (caller.createdBy !== null && !caller.mayCreateSessions) {
    refuse(
      "REMOTE_RELAY_LIMIT",
      `This conversation was itself started by an agent, so it cannot start sessions (one level only) unless the owner enables "Agents in this conversation may start sessions" for it. Nothing was created.`,
    );
  }
}

/**
 * R-LOCAL-01/02: at most 4 sessions started by this conversation may have a turn queued or running.
 * `target` is an existing session a prompt would wake (send); it counts only when it is one of the
 * caller's sessions and is not already at work.
 */
export async function refuseFifthActive(
  ctx: ActionContext,
  options: { readonly target?: SessionRecord; readonly nothing: string },
): Promise<void> {
  const { sessions } = ctx.deps.stores;
  if (options.target) {
    if (!startedByCaller(ctx, options.target)) {
      return;
    }
    const busy = await sessions.listActiveTurns({ sessionId: options.target.id });
    if (busy.length > 0) {
      return;
    }
  }
  const active = await sessions.countActiveSessionsCreatedBy({ relay: null, session: ctx.callerId });
  if (active >= LIMITS.maxActiveSessions) {
    refuse(
      "REMOTE_RELAY_LIMIT",
      `This conversation already has ${active} sessions it started at work (a turn queued or running); at most ${LIMITS.maxActiveSessions} may be, so wait until one of them has finished. ${options.nothing}`,
    );
  }
}
