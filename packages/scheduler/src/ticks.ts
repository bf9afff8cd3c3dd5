import type { SubscriptionRecord } from "./ports/subscription-store";
import { isQuiet } from "./quiet-hours";
import { eventsOf } from "./subscription-match";

const MINUTE_MS = 60_000;

/** A running turn of a watched session, as the stall check sees it. */
export interface RunningWork {
  readonly id: string;
  readonly sessionId: string;
  readonly startedAt: number;
}

/** What a subscription's tick at `now` produces, and when its next tick is due (GAP-13, GAP-14). */
export interface TickPlan {
  /** The heartbeat slot to send now, if one is due and the quiet hours allow it (R-FEW-10). */
  readonly heartbeatSlot: number | null;
  /** Running work that has gone `stalledMinutes` without ending: one stalled event each. */
  readonly stalled: readonly RunningWork[];
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

/**
 * The tick of one subscription: the heartbeat due now (none inside quiet hours, R-FEW-10), the
 * running work past its stall time, and the next due time: the next heartbeat slot or the next
 * running work to reach its stall time. `reported` are the works a stalled event already named.
 */
export function planTick(
  subscription: TickFields,
  running: readonly RunningWork[],
  reported: ReadonlySet<string>,
  now: number,
): TickPlan {
  const slots = heartbeatSlots(subscription, now);
  const quiet = subscription.quietHours !== null && isQuiet(subscription.quietHours, now);
  const watchesStalls = eventsOf(subscription).includes("stalled");
  const stallMs = subscription.stalledMinutes * MINUTE_MS;
  const open = watchesStalls ? running.filter((work) => !reported.has(work.id)) : [];
  const stalled = open.filter((work) => work.startedAt + stallMs <= now);
  const upcoming = open
    .filter((work) => work.startedAt + stallMs > now)
    .map((work) => work.startedAt + stallMs);
  const candidates = [slots.next, ...upcoming].filter((at): at is number => at !== null);
  return {
    heartbeatSlot: quiet ? null : slots.due,
    stalled,
    nextTickAt: candidates.length === 0 ? null : Math.min(...candidates),
  };
}
