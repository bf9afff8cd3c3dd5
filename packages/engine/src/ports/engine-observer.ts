import type { Action } from "@oar/schema";

/** A turn that ended on this process, as the observer hears of it. */
export interface TurnEndedReport {
  readonly provider: string;
  /** `done`, `error` or `stopped`. */
  readonly status: string;
  /** From its start to its end on the clock; `null` for a turn that never started. */
  readonly durationMs: number | null;
}

/** A relay_tool call answered by this relay (its own agents' and paired relays'). */
export interface ToolCallReport {
  /** The call's action; `invalid` when what it named is no action. */
  readonly action: string;
  /** `ok`, or the error code it was answered with. */
  readonly outcome: string;
  readonly durationMs: number;
  /** Whether `toolCallStarted` came first: the call parsed, so its action ran. */
  readonly started: boolean;
}

/**
 * What the engine tells the app as it works, for its metrics: the engine counts nothing itself
 * and imports no metrics library (DESIGN §2). Every method is called after the change it reports
 * committed, once, and must not throw.
 */
export interface EngineObserver {
  turnEnded(turn: TurnEndedReport): void;
  /** A call parsed and its action is about to run; `toolCallEnded` follows once. */
  toolCallStarted(action: Action): void;
  toolCallEnded(call: ToolCallReport): void;
  /** One delivery went out to its watcher, `latenessMs` after its due time. */
  deliverySent(latenessMs: number): void;
  /** A schedule fired its slot, `latenessMs` after the slot. */
  scheduleFired(latenessMs: number): void;
}

export const silentObserver: EngineObserver = {
  turnEnded: () => {},
  toolCallStarted: () => {},
  toolCallEnded: () => {},
  deliverySent: () => {},
  scheduleFired: () => {},
};
