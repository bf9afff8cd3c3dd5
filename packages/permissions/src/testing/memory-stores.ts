import { refuseStoredKey, refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type {
  CardRecord,
  CardStore,
  ListCardsFilter,
  LoopCounterStore,
  RelayUnlock,
  UnlockStore,
} from "../ports";

/** In-memory CardStore for tests of code that uses the port; passes the same contract as storage. */
export function createMemoryCardStore(): CardStore & Snapshotting {
  // Insertion order breaks ties between cards created in the same millisecond.
  const cards = new Map<string, CardRecord>();
  const matches = (c: CardRecord, filter: ListCardsFilter) =>
    (filter.status === undefined || c.status === filter.status) &&
    (filter.conversation === undefined || c.conversation === filter.conversation) &&
    (filter.kind === undefined || c.kind === filter.kind);

  return refusingLikePostgres("CardStore", {
    snapshot: () => snapshotOf(cards),
    async createCard(input) {
      refuseStoredKey(cards.has(input.id), "approval_cards_pkey");
      const record: CardRecord = {
        id: input.id,
        kind: input.kind,
        conversation: input.conversation,
        action: input.action,
        targetRelay: input.targetRelay,
        targetSession: input.targetSession ?? null,
        text: input.text ?? "",
        detail: [...(input.detail ?? [])],
        status: "pending",
        createdAt: input.createdAt,
        answeredAt: null,
        expiresAt: input.expiresAt,
      };
      cards.set(record.id, record);
      return record;
    },
    async getCard(id) {
      return cards.get(id) ?? null;
    },
    async listCards(filter = {}) {
      return [...cards.values()].filter((c) => matches(c, filter)).sort((a, b) => a.createdAt - b.createdAt);
    },
    async answerCard({ id, decision, at }) {
      const current = cards.get(id);
      if (current?.status !== "pending" || current.expiresAt <= at) {
        return false;
      }
      cards.set(id, { ...current, status: decision, answeredAt: at });
      return true;
    },
    async expireCards(now) {
      const expired: CardRecord[] = [];
      for (const c of cards.values()) {
        if (c.status === "pending" && c.expiresAt <= now) {
          const record: CardRecord = { ...c, status: "expired" };
          cards.set(c.id, record);
          expired.push(record);
        }
      }
      return expired;
    },
  });
}

export function createMemoryUnlockStore(): UnlockStore & Snapshotting {
  const unlocks = new Map<string, RelayUnlock>();
  const keyOf = (conversation: string, relay: string) => JSON.stringify([conversation, relay]);
  const get = async ({ conversation, relay }: { conversation: string; relay: string }) =>
    unlocks.get(keyOf(conversation, relay)) ?? null;

  return refusingLikePostgres("UnlockStore", {
    snapshot: () => snapshotOf(unlocks),
    async unlockRelay({ conversation, relay, how, at }) {
      const key = keyOf(conversation, relay);
      const current = unlocks.get(key);
      const next: RelayUnlock = current
        ? { ...current, how: current.how === "mention" ? "mention" : how }
        : { conversation, relay, how, unlockedAt: at };
      unlocks.set(key, next);
      return next;
    },
    getRelayUnlock: get,
    async isRelayUnlocked(key) {
      return (await get(key)) !== null;
    },
    async listRelayUnlocks(conversation) {
      return [...unlocks.values()]
        .filter((u) => u.conversation === conversation)
        .sort((a, b) => a.unlockedAt - b.unlockedAt || a.relay.localeCompare(b.relay));
    },
    async forgetRelay(relay) {
      const name = relay.toLowerCase();
      let ended = 0;
      for (const [key, unlock] of unlocks) {
        if (unlock.relay.toLowerCase() === name) {
          unlocks.delete(key);
          ended++;
        }
      }
      return ended;
    },
  });
}

export function createMemoryLoopCounterStore(): LoopCounterStore & Snapshotting {
  const counts = new Map<string, number>();
  return refusingLikePostgres("LoopCounterStore", {
    snapshot: () => snapshotOf(counts),
    async incrementLoopCounter(conversation) {
      const next = (counts.get(conversation) ?? 0) + 1;
      counts.set(conversation, next);
      return next;
    },
    async resetLoopCounter(conversation) {
      counts.delete(conversation);
    },
    async getLoopCounter(conversation) {
      return counts.get(conversation) ?? 0;
    },
  });
}
