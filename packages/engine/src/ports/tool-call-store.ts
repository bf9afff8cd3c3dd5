/**
 * One relay_tool call a conversation of this relay made (R-UI-02): what its activity shows with
 * 🛰️. Instants are epoch milliseconds of the relay's Clock.
 */
export interface ToolCallRecord {
  readonly id: string;
  /** The calling conversation, a session of this relay. */
  readonly sessionId: string;
  /** The action called; "unknown" for a call that named none. */
  readonly action: string;
  /** The relay the call named: this relay's own name for "this". */
  readonly relay: string;
  /** The `session` argument, when the call named one. */
  readonly targetSession: string | null;
  readonly ok: boolean;
  /** The error code of a call that failed. */
  readonly code: string | null;
  /** The result's summary, or its error message (at most 300 characters). */
  readonly summary: string;
  /** When the call arrived. */
  readonly createdAt: number;
}

/** The calls of each conversation's agent (the activity's 🛰️ lines). */
export interface ToolCallStore {
  /**
   * Keeps these calls in one write, in their order. Those of a session that is not live here
   * (unknown, or deleted while the call ran) are left out: a deleted session's log stays gone.
   * A call whose id is kept already is left as it was (a batch written again after its answer
   * was lost to a cut keeps each call once).
   */
  recordToolCalls(calls: readonly ToolCallRecord[]): Promise<void>;
  /** The session's newest `limit` calls, oldest first (ties in the order they were recorded). */
  listToolCalls(sessionId: string, options: { readonly limit: number }): Promise<ToolCallRecord[]>;
  /** Forgets the session's calls (the session is deleted); returns how many there were. */
  deleteToolCallsOf(sessionId: string): Promise<number>;
}
