import type { SubscriptionRecord } from "./ports/subscription-store";
import { isQuiet } from "./quiet-hours";
import { eventsOf } from "./subscription-match";

const MINUTE_MS = 60_000;

/** A running turn of a watched session, as the stall check sees it. */
export interface RunningWork {
  readonly id: string;
  readonly sessionId: string;
  readonly startedAt: number;
  /** Its latest output, when it produced any: the stall clock restarts there (GAP-13). */
  readonly lastOutputAt: number | null;
}

/** Running work past its stall time, and since when it has been silent (the stalled event's key). */
export interface StalledWork extends RunningWork {
  readonly silentSince: number;
}

/**
 * Work already stalled is looked at again this often while it runs: output restarts its stall
 * clock, and a second silence as long is a new stalled event.
 */
export const STALL_RECHECK_MS = 60_000;

function silentSince(work: RunningWork): number {
  return Math.max(work.startedAt, work.lastOutputAt ?? work.startedAt);
}

/** What a subscription's tick at `now` produces, and when its next tick is due (GAP-13, GAP-14). */
export interface TickPlan {
  /** The heartbeat slot to send now, if one is due and the quiet hours allow it (R-FEW-10). */
  readonly heartbeatSlot: number | null;
  /** Running work that has gone `stalledMinutes` without output: one stalled event each silence. */
  readonly stalled: readonly StalledWork[];
  readonly nextTickAt: number | null;
}

type TickFields = Pick<
  SubscriptionRecord,
  "createdAt" | "heartbeatMinutes" | "stalledMinutes" | "quietHours" | "events"
>;

/** The heartbeat slots lie on a grid from the subscription's creation, every heartbeat_minutes. */
function heartbeatSlots(subscription: TickFields, now: number) {
  if (subscription.heartbeatMinutes === null) {
    return { due: null, next: null };
  }
  const every = subscription.heartbeatMinutes * MINUTE_MS;
  const passed = Math.floor((now - subscription.createdAt) / every);
  return {
    due: passed >= 1 ? subscription.createdAt + passed * every : null,
    next: subscription.createdAt + (Math.max(passed, 0) + 1) * every,
  };
}

/** When a turn that starts at `startedAt` would stall for the subscription, or null if it does not watch stalls. */
export function stallCheckAt(subscription: TickFields, startedAt: number): number | null {
  return eventsOf(subscription).includes("stalled")
    ? startedAt + subscription.stalledMinutes * MINUTE_MS
    : null;
}

/**
 * The tick of one subscription: the heartbeat due now (none inside quiet hours, R-FEW-10), the
 * running work silent for its stall time, and the next due time: the next heartbeat slot, the
 * next running work to reach its stall time, or a re-check of the work already stalled.
 */
export function planTick(subscription: TickFields, running: readonly RunningWork[], now: number): TickPlan {
  const slots = heartbeatSlots(subscription, now);
  const quiet = subscription.quietHours !== null && isQuiet(subscription.quietHours, now);
  const watched = eventsOf(subscription).includes("stalled") ? running : [];
  const stallMs = subscription.stalledMinutes * MINUTE_MS;
  const stalled = watched
    .filter((work) => silentSince(work) + stallMs <= now)
    .map((work) => ({ ...work, silentSince: silentSince(work) }));
  const upcoming = watched
    .filter((work) => silentSince(work) + stallMs > now)
    .map((work) => silentSince(work) + stallMs);
  const recheck = stalled.length > 0 ? now + STALL_RECHECK_MS : null;
  const candidates = [slots.next, recheck, ...upcoming].filter((at): at is number => at !== null);
  return {
    heartbeatSlot: quiet ? null : slots.due,
    stalled,
    nextTickAt: candidates.length === 0 ? null : Math.min(...candidates),
  };
}
