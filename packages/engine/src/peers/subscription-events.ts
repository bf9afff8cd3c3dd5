import { RelayError } from "@oar/core";
import { eventLine, receives, type SubscriptionRecord } from "@oar/scheduler";
import type { PeerEventsPage, PeerEventsQuery, RelayEvent } from "@oar/schema";
import type { EngineDeps } from "../ports/engine-deps";
import type { OutboxRecord } from "../ports/event-store";

/** R-PAIR-04: what a paired relay can still fetch of one subscription: its last 500 events… */
export const PEER_EVENTS_KEPT = 500;
/** …of the last 7 days. */
export const PEER_EVENTS_KEPT_MS = 7 * 24 * 3_600_000;
/** Outbox rows read per query while looking for a subscription's events. */
const SCAN_PAGE = 500;
/**
 * An event's `at` is taken before its transaction commits and its seq at commit, so a row a little
 * older than another can come after it; the first fetch starts this much before the creation.
 */
const SCAN_MARGIN_MS = 60_000;

function notFound(deps: EngineDeps, relay: string | null, id: string, why: string): never {
  throw new RelayError(
    "REMOTE_RELAY_NOT_FOUND",
    `Relay "${deps.relay.name}" has no subscription "${id}" ${why}${relay === null ? "" : ` for relay "${relay}"`}.`,
  );
}

function parseCursor(deps: EngineDeps, after: string | undefined): number {
  if (after === undefined) {
    return 0;
  }
  if (!/^\d{1,15}$/.test(after)) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `after: "${after}" is not a cursor relay "${deps.relay.name}" gave (a cursor is a whole number).`,
    );
  }
  return Number(after);
}

/** Whether the subscription (read as active, its end applied by time) receives the outbox row. */
function takes(subscription: SubscriptionRecord, record: OutboxRecord): boolean {
  if (record.at < subscription.createdAt) {
    return false;
  }
  if (subscription.endedAt !== null && record.at > subscription.endedAt) {
    return false;
  }
  return receives(
    { ...subscription, endedAt: null },
    {
      event: record.event,
      sessionId: record.sessionId,
      subscriptionId: record.subscriptionId,
      line: eventLine(record.event),
    },
  );
}

/**
 * GET /v1/peer/subscriptions/:id/events (DESIGN §4, §28): the events of a subscription that
 * `relay`'s conversation holds here, after the cursor `after` (an outbox seq), oldest first, at
 * most `limit`. Only the last 500 of the last 7 days are kept for it (R-PAIR-04): when older ones
 * after the cursor are left out, or were pruned, `truncated` is true. The cursor moves to the last row read even
 * when none was this subscription's, so the next page starts there. A subscription that ended
 * here is replayed up to its end; once nothing is left after the cursor, it is
 * REMOTE_RELAY_NOT_FOUND saying it ended and why (the peer surface answers it with HTTP 410).
 */
export async function peerSubscriptionEvents(
  deps: EngineDeps,
  relay: string | null,
  subscriptionId: string,
  query: PeerEventsQuery,
): Promise<PeerEventsPage> {
  const { stores, clock } = deps;
  const subscription = await stores.subscriptions.getSubscription(subscriptionId);
  if (
    subscription === null ||
    relay === null ||
    subscription.watcherRelay === null ||
    subscription.watcherRelay.toLowerCase() !== relay.toLowerCase()
  ) {
    return notFound(deps, relay, subscriptionId, "held");
  }
  const after = parseCursor(deps, query.after);
  const keptSince = clock.now() - PEER_EVENTS_KEPT_MS;
  // Nothing before the subscription's creation is its: a first fetch does not read the outbox from 0.
  let position = Math.max(after, await stores.events.lastSeqBefore(subscription.createdAt - SCAN_MARGIN_MS));
  // Every cursor this route hands out names a stored row (or 0); once retention pruned that row,
  // rows after it may have gone with it (R-PAIR-04's 7 days), and the page cannot say which.
  let truncated = position === after && after > 0 && !(await stores.events.hasEventSeq(after));
  const found: OutboxRecord[] = [];
  for (;;) {
    const rows = await stores.events.listEvents({ after: position, limit: SCAN_PAGE });
    for (const record of rows) {
      if (!takes(subscription, record)) {
        continue;
      }
      if (record.at < keptSince) {
        truncated = true;
        continue;
      }
      found.push(record);
    }
    position = rows.at(-1)?.seq ?? position;
    if (rows.length < SCAN_PAGE) {
      break;
    }
  }
  if (found.length > PEER_EVENTS_KEPT) {
    truncated = true;
    found.splice(0, found.length - PEER_EVENTS_KEPT);
  }
  const page = found.slice(0, query.limit);
  if (page.length === 0 && subscription.endedAt !== null) {
    return notFound(
      deps,
      relay,
      subscriptionId,
      `active any more: it ended (${subscription.endReason ?? "ended"}) and has no event left to replay`,
    );
  }
  const last = page.at(-1);
  const cursor = page.length < found.length && last !== undefined ? last.seq : position;
  return {
    events: page.map((record) => record.event as RelayEvent),
    cursor: cursor === 0 && query.after === undefined ? null : String(cursor),
    truncated,
  };
}
