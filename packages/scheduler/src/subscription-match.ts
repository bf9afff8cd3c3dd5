import { DEFAULT_EVENTS, type OutboxEvent, type SubscribableEvent, URGENT_EVENTS } from "@oar/schema";
import type { SubscriptionRecord } from "./ports/subscription-store";

/** The events a subscription receives: those it named, else the default set (R-EVT-01, R-EVT-05). */
export function eventsOf(subscription: Pick<SubscriptionRecord, "events">): readonly SubscribableEvent[] {
  return subscription.events ?? DEFAULT_EVENTS;
}

/** Never held by digests, quiet hours or the hourly cap (R-FEW-02, R-DLV-06). */
export function isUrgent(kind: string): boolean {
  return (URGENT_EVENTS as readonly string[]).includes(kind);
}

/**
 * Whether `session`, a session of this relay, is one the subscription watches (R-SUB-06: never
 * its own conversation; R-FEW-18: exclude). A mirror (§28, `relay` set) watches none here.
 */
export function watches(
  subscription: Pick<SubscriptionRecord, "watcher" | "scope" | "sessions" | "exclude"> & {
    readonly relay?: string | null;
  },
  session: string,
): boolean {
  if (session === subscription.watcher || (subscription.relay ?? null) !== null) {
    return false;
  }
  return subscription.scope === "all"
    ? !subscription.exclude.includes(session)
    : subscription.sessions.includes(session);
}

/** What an outbox row says about itself, as matching needs it. */
export interface RoutedEvent {
  readonly event: OutboxEvent;
  readonly sessionId: string | null;
  /** Set for the events one subscription produces (all_idle, stalled, heartbeat): they go to it alone. */
  readonly subscriptionId: string | null;
  /** The event's line as the watcher would read it: `match` looks in it (GAP-11). */
  readonly line: string;
}

/**
 * Whether the subscription receives the event: its own subscription-wide events; otherwise an
 * event it names (or of the default set), of a session it watches, whose line contains `match`.
 */
export function receives(subscription: SubscriptionRecord, routed: RoutedEvent): boolean {
  if (subscription.endedAt !== null) {
    return false;
  }
  const { kind } = routed.event;
  // A mirror (§28) watches another relay's sessions: it receives only the events fetched for it.
  if (subscription.relay !== null && routed.subscriptionId !== subscription.id) {
    return false;
  }
  if (routed.subscriptionId !== null) {
    if (routed.subscriptionId !== subscription.id) {
      return false;
    }
    // The heartbeat says the watch is alive: no filter hides it.
    if (kind === "heartbeat") {
      return true;
    }
  } else if (
    !(eventsOf(subscription) as readonly string[]).includes(kind) ||
    routed.sessionId === null ||
    !watches(subscription, routed.sessionId)
  ) {
    return false;
  }
  return subscription.match === null || routed.line.includes(subscription.match);
}
