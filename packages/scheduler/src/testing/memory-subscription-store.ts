import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { SubscriptionEndReason } from "@oar/schema";
import type { SubscriptionRecord, SubscriptionStore } from "../ports/subscription-store";

/**
 * In-memory SubscriptionStore for tests; it passes the same contract suite as @oar/storage.
 * Transactions run one at a time in memory, so a claim never finds another one holding a row.
 */
export function createMemorySubscriptionStore(): SubscriptionStore & Snapshotting {
  // Insertion order stands in for the database's sequence column ("oldest first").
  const subscriptions = new Map<string, SubscriptionRecord>();
  const all = () => [...subscriptions.values()];
  const active = () => all().filter((s) => s.endedAt === null);
  const end = (ids: readonly string[], reason: SubscriptionEndReason, at: number) => {
    const ending = new Set(ids);
    const ended = active().filter((s) => ending.has(s.id));
    for (const subscription of ended) {
      subscriptions.set(subscription.id, { ...subscription, endedAt: at, endReason: reason });
    }
    return ended.map((s) => s.id);
  };

  return refusingLikePostgres("SubscriptionStore", {
    snapshot: () => snapshotOf(subscriptions),
    async createSubscription(input) {
      if (subscriptions.has(input.id)) {
        throw new Error(`A subscription with id ${input.id} already exists.`);
      }
      const record: SubscriptionRecord = {
        ...input,
        watcherRelay: input.watcherRelay ?? null,
        relay: input.relay ?? null,
        remoteId: input.remoteId ?? null,
        remoteCursor: null,
        linkLostAt: null,
        remoteEndedAt: null,
        sessions: [...input.sessions],
        exclude: [...input.exclude],
        events: input.events === null ? null : [...input.events],
        quietHours: input.quietHours === null ? null : { ...input.quietHours },
        lastDigestAt: null,
        endedAt: null,
        endReason: null,
      };
      subscriptions.set(record.id, record);
      return record;
    },
    async getSubscription(id) {
      return subscriptions.get(id) ?? null;
    },
    async getSubscriptions(ids) {
      return [...new Set(ids)].flatMap((id) => subscriptions.get(id) ?? []);
    },
    async listSubscriptions({ watcher, endedSince }) {
      return all().filter(
        (s) =>
          s.watcher === watcher && (s.endedAt === null || (endedSince !== null && s.endedAt >= endedSince)),
      );
    },
    async countActiveSubscriptions(watcher) {
      return active().filter((s) => s.watcher === watcher).length;
    },
    async listSubscriptionsWatching(sessionIds) {
      if (sessionIds.length === 0) {
        return [];
      }
      return active().filter(
        (s) => s.relay === null && (s.scope === "all" || s.sessions.some((id) => sessionIds.includes(id))),
      );
    },
    async listActiveSubscriptionsOf(watchers) {
      return active().filter((s) => watchers.includes(s.watcher));
    },
    async endSubscriptions({ ids, reason, at }) {
      return end(ids, reason, at);
    },
    async forgetSession({ sessionId, at }) {
      // Those it watched from end first; their lists are history and keep the session.
      const ended = end(
        active()
          .filter((s) => s.watcher === sessionId)
          .map((s) => s.id),
        "watcher_archived",
        at,
      );
      const emptied: string[] = [];
      for (const subscription of active()) {
        if (subscription.scope !== "list" || !subscription.sessions.includes(sessionId)) {
          continue;
        }
        const sessions = subscription.sessions.filter((id) => id !== sessionId);
        subscriptions.set(subscription.id, { ...subscription, sessions });
        if (sessions.length === 0) {
          emptied.push(subscription.id);
        }
      }
      ended.push(...end(emptied, "archived", at));
      const endedIds = new Set(ended);
      return all()
        .filter((s) => endedIds.has(s.id))
        .map((s) => s.id);
    },
    async transferSubscriptions({ from, to, watcherRelay, mirrorsOf }) {
      const moved = active().filter(
        (s) => s.watcher === from && s.watcherRelay === watcherRelay && s.relay === (mirrorsOf ?? null),
      );
      for (const subscription of moved) {
        subscriptions.set(subscription.id, { ...subscription, watcher: to });
      }
      return moved.map((s) => s.id);
    },
    async claimDueTicks({ now, limit }) {
      return active()
        .filter((s) => s.nextTickAt !== null && s.nextTickAt <= now)
        .sort((a, b) => (a.nextTickAt ?? 0) - (b.nextTickAt ?? 0))
        .slice(0, Math.max(0, limit));
    },
    async advanceTicks({ ids, at }) {
      for (const id of ids) {
        const current = subscriptions.get(id);
        if (current !== undefined && current.endedAt === null) {
          subscriptions.set(id, { ...current, nextTickAt: Math.min(current.nextTickAt ?? at, at) });
        }
      }
    },
    async setTiming(id, timing) {
      const current = subscriptions.get(id);
      if (current === undefined) {
        return;
      }
      subscriptions.set(id, {
        ...current,
        ...(timing.lastDigestAt === undefined ? {} : { lastDigestAt: timing.lastDigestAt }),
        ...(timing.nextTickAt === undefined ? {} : { nextTickAt: timing.nextTickAt }),
      });
    },
    async listMirrors(options = {}) {
      return active().filter(
        (s) => s.relay !== null && (options.relay === undefined || s.relay === options.relay),
      );
    },
    async listMirrorsToEnd() {
      return all().filter((s) => s.relay !== null && s.endedAt !== null && s.remoteEndedAt === null);
    },
    async setMirrorState(id, state) {
      const current = subscriptions.get(id);
      if (current === undefined) {
        return;
      }
      subscriptions.set(id, {
        ...current,
        ...(state.remoteCursor === undefined ? {} : { remoteCursor: state.remoteCursor }),
        ...(state.linkLostAt === undefined ? {} : { linkLostAt: state.linkLostAt }),
        ...(state.remoteEndedAt === undefined ? {} : { remoteEndedAt: state.remoteEndedAt }),
      });
    },
    async nextTickAt() {
      const ticks = active().flatMap((s) => (s.nextTickAt === null ? [] : [s.nextTickAt]));
      return ticks.length === 0 ? null : Math.min(...ticks);
    },
  });
}
