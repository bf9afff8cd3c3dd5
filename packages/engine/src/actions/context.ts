import type { OwnerSettings } from "@oar/schema";
import type { EngineDeps } from "../engine";
import type { SessionRecord } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";

/** What every action runs with: the engine's parts, the calling session and the settings now in force. */
export interface ActionContext {
  readonly deps: EngineDeps;
  readonly runtime: SessionRuntime;
  /** The calling conversation (authenticated by the app before the call reaches the engine). */
  readonly caller: SessionRecord;
  readonly settings: OwnerSettings;
  /** Aborted when the client goes away: waits end early. */
  readonly signal: AbortSignal | undefined;
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
