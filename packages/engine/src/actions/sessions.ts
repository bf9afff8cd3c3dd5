import { notOnItselfRule } from "@oar/permissions";
import type { Action, SessionState } from "@oar/schema";
import type { Provenance, SessionRecord } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";
import type { ActionContext, CallerContext } from "./context";
import { enforce, refuse } from "./refusal";

/**
 * R-LOCAL-06: send, wait, stop, archive and update_session never act on the caller's own
 * conversation. Another relay's agent has no conversation here to act on.
 */
export function refuseSelf(ctx: ActionContext, action: Action, sessionId: string): void {
  if (ctx.from.relay === null) {
    enforce(notOnItselfRule({ action, targetSession: sessionId, callerSession: ctx.callerId }));
  }
}

/**
 * The named session; unknown or deleted → REMOTE_RELAY_NOT_FOUND, and archived too unless the
 * action may look at archived sessions (reading, waiting, stopping, archiving).
 */
/** REMOTE_RELAY_NOT_FOUND for a session this relay does not have (or deleted). */
export function refuseUnknownSession(ctx: ActionContext, sessionId: string, nothing?: string): never {
  refuse(
    "REMOTE_RELAY_NOT_FOUND",
    `No session "${sessionId}" on relay "${ctx.deps.relay.name}". list_sessions shows the sessions there.${nothing ? ` ${nothing}` : ""}`,
  );
}

export async function requireSession(
  ctx: ActionContext,
  sessionId: string,
  options: { readonly allowArchived: boolean; readonly nothing?: string },
): Promise<SessionRecord> {
  const nothing = options.nothing ? ` ${options.nothing}` : "";
  const session = await ctx.deps.stores.sessions.getSession(sessionId);
  if (!session) {
    refuseUnknownSession(ctx, sessionId, options.nothing);
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

/**
 * Hops of the prompt that started the caller's running turn (§6): 0 when the owner, a local
 * schedule or nothing started it. A prompt from another relay's agent carries its count.
 */
export async function callerTurnHops(ctx: ActionContext): Promise<number> {
  if (ctx.peer) {
    return ctx.peer.origin.hops;
  }
  const running = ctx.runtime.inFlight(ctx.callerId);
  if (!running) {
    return 0;
  }
  const turn = await ctx.deps.stores.sessions.getTurn(running.turnId);
  return turn?.origin.provenance?.hops ?? 0;
}

/**
 * The `↗ from` badge and hop provenance of a prompt the caller's agent sends (R-UI-05, §6). A
 * prompt between two sessions of this relay crosses no relay: it keeps the hops of the turn it
 * was written in, so a chain through this relay cannot reset the count.
 */
export async function callerProvenance(ctx: CallerContext): Promise<Provenance> {
  if (ctx.peer) {
    const { origin } = ctx.peer;
    return {
      relay: origin.relay,
      session: origin.session,
      title: origin.title,
      model: origin.model,
      hops: origin.hops,
      userUnlocked: origin.userUnlocked,
    };
  }
  return {
    relay: ctx.deps.relay.name,
    session: ctx.caller.id,
    title: ctx.caller.title,
    model: ctx.caller.model,
    hops: await callerTurnHops(ctx),
    userUnlocked: false,
  };
}

/** Whether the caller's conversation started that session (R-UPD-09, R-LOCAL-01): here, or as this relay recorded another relay's. */
export function startedByCaller(ctx: ActionContext, session: SessionRecord): boolean {
  return (
    session.createdBy !== null &&
    session.createdBy.relay === ctx.from.relay &&
    session.createdBy.session === ctx.from.session
  );
}
