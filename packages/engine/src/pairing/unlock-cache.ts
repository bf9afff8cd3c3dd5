import { type Clock, createTtlCache } from "@oar/core";
import type { RelayUnlock, UnlockStore } from "@oar/permissions";

/**
 * How long a mention read here stands for the row: another relay process may remove the pairing
 * (which ends its mentions) in that time (DESIGN §9). Through this process the end is seen at once.
 */
export const MENTIONS_CACHE_MS = 1_000;

/**
 * A mention unlocks a relay for the rest of the conversation and is never downgraded (R-LOCK-03,
 * UnlockStore), so once read it is remembered for `ttlMs` and the forwarding path skips the query.
 * Anything else (locked, opened by an agent) is read each time: it can still change, from any
 * process. Only removing the pairing ends a mention (`forgetRelay`).
 */
export function rememberingMentions(
  store: UnlockStore,
  options: { readonly clock: Clock; readonly ttlMs?: number },
): UnlockStore & { forgetAll(): void } {
  const mentions = createTtlCache<string, RelayUnlock | null>({
    clock: options.clock,
    ttlMs: options.ttlMs ?? MENTIONS_CACHE_MS,
    keep: (unlock) => unlock?.how === "mention",
  });
  const keyOf = (conversation: string, relay: string) => `${conversation}\u0000${relay.toLowerCase()}`;
  return {
    unlockRelay: async (input) => {
      const unlock = await store.unlockRelay(input);
      mentions.delete(keyOf(input.conversation, input.relay));
      return unlock;
    },
    getRelayUnlock: ({ conversation, relay }) =>
      mentions.get(keyOf(conversation, relay), () => store.getRelayUnlock({ conversation, relay })),
    isRelayUnlocked: (key) => store.isRelayUnlocked(key),
    listRelayUnlocks: (conversation) => store.listRelayUnlocks(conversation),
    async forgetRelay(relay) {
      mentions.clear();
      try {
        return await store.forgetRelay(relay);
      } finally {
        mentions.clear();
      }
    },
    forgetAll: () => mentions.clear(),
  };
}
