import type { Action } from "@oar/schema";
import type { Provenance, SessionRecord, SessionState } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";
import type { ActionContext, CallerContext } from "./context";
import { refuse } from "./refusal";

/** R-LOCAL-06: send, wait, stop, archive and update_session never act on the caller's own conversation. */
export function refuseSelf(ctx: ActionContext, action: Action, sessionId: string): void {
  if (sessionId === ctx.callerId) {
    refuse(
      "REMOTE_RELAY_SELF",
      `${action} cannot act on this conversation itself (session ${sessionId}): an agent never uses it on the conversation it runs in.`,
    );
  }
}

/**
 * The named session; unknown or deleted → REMOTE_RELAY_NOT_FOUND, and archived too unless the
 * action may look at archived sessions (reading, waiting, stopping, archiving).
 */
export async function requireSession(
  ctx: ActionContext,
  sessionId: string,
  options: { readonly allowArchived: boolean; readonly nothing?: string },
): Promise<SessionRecord> {
  const nothing = options.nothing ? ` ${options.nothing}` : "";
  const session = await ctx.deps.stores.sessions.getSession(sessionId);
  if (!session) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `No session "${sessionId}" on relay "${ctx.deps.relay.name}". list_sessions shows the sessions there.${nothing}`,
    );
  }
  if (session.archivedAt !== null && !options.allowArchived) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `Session ${sessionId} ("${session.title}") on relay "${ctx.deps.relay.name}" is archived; only its owner can bring it back.${nothing}`,
    );
  }
  return session;
}

/** R-LSES-02: a turn running here makes it `running_turn`, whatever the row last said. */
export function sessionState(session: SessionRecord, runtime: SessionRuntime): SessionState {
  return runtime.inFlight(session.id) ? "running_turn" : session.state;
}

/** The `↗ from` badge of a prompt the caller's agent sends (R-UI-05); on this relay it crossed no relay. */
export function callerProvenance(ctx: CallerContext): Provenance {
  return {
    relay: ctx.deps.relay.name,
    session: ctx.caller.id,
    title: ctx.caller.title,
    model: ctx.caller.model,
    hops: 0,
    userUnlocked: false,
  };
}

/** Whether the caller's conversation started that session (R-UPD-09, R-LOCAL-01). */
export function startedByCaller(ctx: ActionContext, session: SessionRecord): boolean {
  return (
    session.createdBy !== null &&
    session.createdBy.relay === null &&
    session.createdBy.session === ctx.callerId
  );
}
