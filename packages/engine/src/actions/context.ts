import type { OwnerSettings } from "@oar/schema";
import type { EngineDeps } from "../engine";
import type { SessionRecord } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";

/** What every action runs with: the engine's parts, the calling session and the settings now in force. */
export interface ActionContext {
  readonly deps: EngineDeps;
  readonly runtime: SessionRuntime;
  /** The calling conversation's id. */
  readonly callerId: string;
  /**
   * The calling conversation's row, read once on first use: most actions need only its id, and
   * one query less per call matters on the embedded database. Unknown or deleted → REMOTE_RELAY_AUTH.
   */
  readonly loadCaller: () => Promise<SessionRecord>;
  readonly settings: OwnerSettings;
  /** Aborted when the client goes away: waits end early. */
  readonly signal: AbortSignal | undefined;
}

/** The context of an action that needs the caller's settings (its provider, model, mode, group…). */
export interface CallerContext extends ActionContext {
  readonly caller: SessionRecord;
}

export async function withCaller(ctx: ActionContext): Promise<CallerContext> {
  return { ...ctx, caller: await ctx.loadCaller() };
}

/** What an action returns when it worked; `execute` adds `ok`, `relay`, `summary` and `ignored`. */
export interface ActionSuccess {
  /** The session the summary names (R-CALL-10). */
  readonly session?: string;
  /** The summary's text after the colon. */
  readonly details: string;
  readonly fields: object;
  readonly notes?: readonly string[];
}
