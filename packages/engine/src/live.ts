import type { PeerStatusCache } from "./peers/peer-status";
import { createPeerStatusCache } from "./peers/peer-status";
import { createWakeups, type Wakeups } from "./wakeups";

/** What one engine keeps in memory besides its stores: wake-ups and short-lived caches, never state to lose. */
export interface EngineLive {
  /** Approval cards answered through this process: wakes the calls waiting on them. */
  readonly cardAnswers: Wakeups;
  /** What each paired relay said when last asked, so list_relays does not ask on every call. */
  readonly peerStatus: PeerStatusCache;
}

export function createEngineLive(): EngineLive {
  return { cardAnswers: createWakeups(), peerStatus: createPeerStatusCache() };
}
