import { type Clock, createTtlCache, type TtlCache } from "@oar/core";
import { createEventHints, type EventHints } from "../outbox/event-hints";
import type { PeerStatusCache } from "../pairing/peer-status";
import { createPeerStatusCache } from "../pairing/peer-status";
import { createWakeups, type Wakeups } from "../wakeups";
import { createToolCallWriter, type ToolCallWriter } from "./tool-call-writer";

/**
 * How long a session deleted by another relay process may still act as a caller here
 * (DESIGN §9); a deletion through this engine takes effect at once.
 */
export const LIVE_CALLER_CACHE_MS = 1_000;

/** What one engine keeps in memory besides its stores: wake-ups and short-lived caches, never state to lose. */
export interface EngineLive {
  /** Approval cards answered through this process: wakes the calls waiting on them. */
  readonly cardAnswers: Wakeups;
  /** What each paired relay said when last asked, so list_relays does not ask on every call. */
  readonly peerStatus: PeerStatusCache;
  /** Calling sessions found live lately, so a read costs no query for its caller (DESIGN §7). */
  readonly liveCallers: TtlCache<string, boolean>;
  /** A schedule was created or may be released here: the schedule runner looks at its due times again. */
  readonly scheduleChanges: EventHints;
  /** A copy of a question kept on a paired relay was made here: the poller looks at its due times again. */
  readonly questionPolls: EventHints;
  /** The agents' relay_tool calls on their way to the activity log (R-UI-02). */
  readonly toolCalls: ToolCallWriter;
}

export function createEngineLive(options: { readonly clock: Clock }): EngineLive {
  return {
    cardAnswers: createWakeups(),
    peerStatus: createPeerStatusCache(),
    liveCallers: createTtlCache({
      clock: options.clock,
      ttlMs: LIVE_CALLER_CACHE_MS,
      keep: (live) => live,
    }),
    scheduleChanges: createEventHints(),
    questionPolls: createEventHints(),
    toolCalls: createToolCallWriter({ clock: options.clock }),
  };
}
