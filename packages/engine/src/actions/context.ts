import type { CardDetails, TargetSessionFacts } from "@oar/permissions";
import type { Mode, OwnerSettings, PeerOrigin, RelayToolCall } from "@oar/schema";
import type { EngineLive } from "../live/engine-live";
import type { EngineDeps } from "../ports/engine-deps";
import type { ConversationRef, SessionRecord } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";

/** What the actions read of the calling conversation: a session here, or another relay's as its origin says. */
export interface CallerProfile {
  readonly id: string;
  readonly title: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly effort: string | null;
  readonly mode: Mode;
  readonly cwd: string | null;
  /** A repository session's repository and branch (R-CRE-07), passed on like the folder. */
  readonly repo: string | null;
  readonly branch: string | null;
  readonly group: SessionRecord["group"];
  /** An agent started this conversation (R-LOCAL-03). */
  readonly startedByAgent: boolean;
  /** The owner's "Agents in this conversation may start sessions" (R-LOCAL-03). */
  readonly mayCreateSessions: boolean;
}

/** A session of this relay as the calling conversation. */
export function callerProfileOf(session: SessionRecord): CallerProfile {
  return {
    id: session.id,
    title: session.title,
    provider: session.provider,
    model: session.model,
    effort: session.effort,
    mode: session.mode,
    cwd: session.cwd,
    repo: session.repo,
    branch: session.branch,
    group: session.group,
    startedByAgent: session.createdBy !== null,
    mayCreateSessions: session.mayCreateSessions,
  };
}

/** A call that another relay's agent made through the peer surface (DESIGN §4). */
export interface PeerCall {
  readonly origin: PeerOrigin;
  /** Check the whole call and change nothing (origin.preflight). */
  readonly preflight: boolean;
}

/** What the session a write acts on and the cards must show, as the action found them. */
export interface GateTarget {
  readonly target?: TargetSessionFacts;
  readonly details?: CardDetails;
}

/**
 * Called by every write action once its own checks have passed and before its first write: this
 * relay's approval cards for its own agents (DESIGN GAP-04), or for another relay's agent the part
 * of the rules this relay applies itself (R-UPD-12) and the preflight's answer.
 */
export type Gate = (call: RelayToolCall, facts?: GateTarget) => Promise<void>;

/** What every action runs with: the engine's parts, the calling conversation and the settings now in force. */
export interface ActionContext {
  readonly deps: EngineDeps;
  readonly runtime: SessionRuntime;
  readonly live: EngineLive;
  /** The calling conversation's session id, on its own relay. */
  readonly callerId: string;
  /** The calling conversation: on this relay (`relay: null`) or on the relay a peer call came from. */
  readonly from: ConversationRef;
  /** Set when another relay's agent calls. */
  readonly peer?: PeerCall;
  /**
   * The calling conversation, read once on first use: most actions need only its id, and one
   * query less per call matters on the embedded database. Unknown or deleted → REMOTE_RELAY_AUTH.
   */
  readonly loadCaller: () => Promise<CallerProfile>;
  readonly settings: OwnerSettings;
  /** Aborted when the client goes away: waits end early. */
  readonly signal: AbortSignal | undefined;
  readonly gate: Gate;
}

/** The context of an action that needs the caller's settings (its provider, model, mode, group…). */
export interface CallerContext extends ActionContext {
  readonly caller: CallerProfile;
}

/**
 * Runs `work` with the context's stores bound to one transaction: the call's writes land
 * together or not at all (DESIGN §7). `work` must read and write through the context it is
 * given, and leave what runs after commit (a queue's kick, a wait) to the caller.
 */
export function changeAtomically<C extends ActionContext, T>(
  ctx: C,
  work: (tx: C) => Promise<T>,
): Promise<T> {
  return ctx.deps.stores.transaction((stores) => work({ ...ctx, deps: { ...ctx.deps, stores } }));
}

export async function withCaller(ctx: ActionContext): Promise<CallerContext> {
  return { ...ctx, caller: await ctx.loadCaller() };
}

/** What an action returns when it worked; `execute` adds `ok`, `relay`, `summary` and `ignored`. */
export interface ActionSuccess {
  /** The session the summary names (R-CALL-10). */
  readonly session?: string;
  /** The task the summary names after the session (read_task_output). */
  readonly task?: string;
  /** The summary's text after the colon. */
  readonly details: string;
  readonly fields: object;
  readonly notes?: readonly string[];
}
