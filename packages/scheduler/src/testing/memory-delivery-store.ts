import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { DeliveryReason, DeliveryRecord, DeliveryStore, WakeupRecord } from "../ports/delivery-store";

/** The reasons that hold a delivery for its subscription: a digest, quiet hours, the hourly cap. */
const HELD_REASONS: ReadonlySet<DeliveryReason> = new Set(["digest", "quiet", "cap"]);

/** The memory deliveries, with their rows for a memory retention store to prune. */
export interface MemoryDeliveryStore extends DeliveryStore, Snapshotting {
  readonly rows: {
    readonly deliveries: Map<string, DeliveryRecord>;
    readonly wakeups: Map<string, WakeupRecord>;
    /** The routing cursor: the last outbox seq routed. */
    readonly cursor: () => number;
  };
}

/**
 * In-memory DeliveryStore for tests; it passes the same contract suite as @oar/storage.
 * Transactions run one at a time in memory, so the cursor and every watcher's deliveries are
 * always free to claim.
 */
export function createMemoryDeliveryStore(): MemoryDeliveryStore {
  const deliveries = new Map<string, DeliveryRecord>();
  const wakeups = new Map<string, WakeupRecord>();
  // The collected replies: when each (session, turn) was collected.
  const collected = new Map<string, number>();
  const cursor = new Map<"seq", number>();

  const pending = () => [...deliveries.values()].filter((d) => d.status === "pending");
  /** When the watcher's earliest pending delivery is due. */
  const earliest = (watcher: string) =>
    Math.min(
      ...pending()
        .filter((d) => d.watcher === watcher)
        .map((d) => d.dueAt),
    );
  const update = (ids: readonly string[], change: (delivery: DeliveryRecord) => DeliveryRecord) => {
    for (const id of new Set(ids)) {
      const delivery = deliveries.get(id);
      if (delivery?.status === "pending") {
        deliveries.set(id, change(delivery));
      }
    }
  };
  const collectedKey = (sessionId: string, turnId: string) => JSON.stringify([sessionId, turnId]);

  return refusingLikePostgres("DeliveryStore", {
    rows: { deliveries, wakeups, cursor: () => cursor.get("seq") ?? 0 },
    snapshot: () => snapshotOf(deliveries, wakeups, collected, cursor),

    async claimCursor() {
      return cursor.get("seq") ?? 0;
    },
    async setCursor(seq) {
      cursor.set("seq", seq);
    },

    async addDeliveries(rows) {
      for (const row of rows) {
        const stored = [...deliveries.values()].some(
          (d) => d.id === row.id || (d.watcher === row.watcher && d.eventId === row.eventId),
        );
        if (!stored) {
          deliveries.set(row.id, {
            ...row,
            status: row.status ?? "pending",
            messageId: row.messageId ?? null,
          });
        }
      }
    },
    async storedPairs({ watchers, eventIds }) {
      const wanted = new Set(eventIds);
      return [...deliveries.values()]
        .filter((d) => watchers.includes(d.watcher) && wanted.has(d.eventId))
        .map((d) => ({ watcher: d.watcher, eventId: d.eventId }));
    },
    async openWindowEnds(watchers) {
      const ends = new Map<string, number>();
      for (const d of pending()) {
        if (d.reason === "window" && watchers.includes(d.watcher)) {
          ends.set(d.watcher, Math.max(ends.get(d.watcher) ?? d.dueAt, d.dueAt));
        }
      }
      return ends;
    },
    async closeWindows({ watchers, at, before = Number.POSITIVE_INFINITY }) {
      const window = pending().filter(
        (d) => watchers.includes(d.watcher) && d.reason === "window" && d.eventSeq < before,
      );
      update(
        window.map((d) => d.id),
        (d) => ({ ...d, dueAt: Math.min(d.dueAt, at) }),
      );
    },
    async claimDueDeliveries({ now, watchers, after }) {
      const due = pending().filter((d) => d.dueAt <= now);
      // The watchers waiting longest go first; the result is ordered by watcher, then event.
      const firstDue = new Map<string, number>();
      for (const delivery of due) {
        firstDue.set(delivery.watcher, Math.min(firstDue.get(delivery.watcher) ?? Infinity, delivery.dueAt));
      }
      const claimed = new Set(
        [...firstDue]
          .filter(([watcher]) => after === undefined || earliest(watcher) > after)
          .sort(([a, aDue], [b, bDue]) => aDue - bDue || compareText(a, b))
          .slice(0, Math.max(0, watchers))
          .map(([watcher]) => watcher),
      );
      return due.filter((d) => claimed.has(d.watcher)).sort(byWatcherThenEvent);
    },
    async listDueOf({ watchers, now }) {
      return pending()
        .filter((d) => watchers.includes(d.watcher) && d.dueAt <= now)
        .sort(byWatcherThenEvent);
    },
    async claimAmong({ now, among, limit, closing }) {
      // Nothing else sends in memory: every watcher asked for is free, taken in watcher order.
      const watchers = [...new Set(among)].sort(compareText).slice(0, Math.max(0, limit));
      const taken = new Set(watchers);
      const closes = (d: DeliveryRecord) =>
        closing !== undefined &&
        d.reason === "window" &&
        closing.watchers.includes(d.watcher) &&
        d.eventSeq < closing.before;
      const due = pending()
        .filter((d) => taken.has(d.watcher) && (d.dueAt <= now || closes(d)))
        .sort(byWatcherThenEvent);
      return { watchers, due };
    },
    async markSent({ messages }) {
      for (const { ids, messageId } of messages) {
        update(ids, (d) => ({ ...d, status: "sent", messageId }));
      }
    },
    async markDropped({ ids }) {
      update(ids, (d) => ({ ...d, status: "dropped" }));
    },
    async postpone({ ids, dueAt, reason }) {
      update(ids, (d) => ({ ...d, dueAt, reason }));
    },
    async nextDeliveryDueAt() {
      const due = pending().map((d) => d.dueAt);
      return due.length === 0 ? null : Math.min(...due);
    },
    async heldBySubscriptions(subscriptionIds) {
      const wanted = new Set(subscriptionIds);
      const held = new Map<string, { heldCount: number; nextDeliveryAt: number }>();
      for (const delivery of pending()) {
        const id = delivery.subscriptionId;
        if (id === null || !wanted.has(id) || !HELD_REASONS.has(delivery.reason)) {
          continue;
        }
        const summary = held.get(id);
        held.set(id, {
          heldCount: (summary?.heldCount ?? 0) + 1,
          nextDeliveryAt: Math.min(summary?.nextDeliveryAt ?? Infinity, delivery.dueAt),
        });
      }
      return [...held]
        .sort(([a], [b]) => compareText(a, b))
        .map(([subscriptionId, summary]) => ({ subscriptionId, ...summary }));
    },
    async moveWatcher({ from, to, subscriptionIds }) {
      if (from === to) {
        return;
      }
      const only = subscriptionIds === undefined ? null : new Set(subscriptionIds);
      const events = new Set([...deliveries.values()].filter((d) => d.watcher === to).map((d) => d.eventId));
      const moving = pending().filter(
        (d) =>
          d.watcher === from && (only === null || (d.subscriptionId !== null && only.has(d.subscriptionId))),
      );
      for (const delivery of moving) {
        if (events.has(delivery.eventId)) {
          // `to` has this event already: it goes out to it once.
          deliveries.delete(delivery.id);
        } else {
          deliveries.set(delivery.id, { ...delivery, watcher: to });
        }
      }
    },

    async setWakeupKinds(kinds) {
      for (const { messageId, kind } of kinds) {
        const wakeup = wakeups.get(messageId);
        if (wakeup !== undefined) {
          wakeups.set(messageId, { ...wakeup, kind });
        }
      }
    },
    async recordWakeups(records) {
      for (const wakeup of records) {
        if (!wakeups.has(wakeup.messageId)) {
          wakeups.set(wakeup.messageId, { ...wakeup });
        }
      }
    },
    async listWakeups({ watchers, since }) {
      const wanted = new Set(watchers);
      return [...wakeups.values()]
        .filter((w) => wanted.has(w.watcher) && w.at >= since)
        .sort((a, b) => a.at - b.at || compareText(a.messageId, b.messageId));
    },

    async recordCollectedReply({ turnId, sessionId, at }) {
      const key = collectedKey(sessionId, turnId);
      if (!collected.has(key)) {
        collected.set(key, at);
      }
    },
    async collectedReplies({ sessionId, turnIds }) {
      return [...new Set(turnIds)].filter((turnId) => collected.has(collectedKey(sessionId, turnId)));
    },
  });
}

const byWatcherThenEvent = (a: DeliveryRecord, b: DeliveryRecord) =>
  compareText(a.watcher, b.watcher) || a.eventSeq - b.eventSeq;

/** Text order by code point, as the database's `COLLATE "C"` comparisons sort. */
function compareText(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  return a < b ? -1 : 1;
}
