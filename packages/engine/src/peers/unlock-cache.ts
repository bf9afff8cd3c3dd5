import type { RelayUnlock, UnlockStore } from "@oar/permissions";

/** Beyond this many remembered unlocks the memory starts again from empty. */
const MAX_REMEMBERED = 10_000;

/**
 * A mention unlocks a relay for the rest of the conversation and is never downgraded (R-LOCK-03,
 * UnlockStore), so once read it is remembered for good and the forwarding path skips the query.
 * Anything else (locked, opened by an agent) is read each time: it can still change, from any
 * process. Only removing the pairing ends a mention (`forgetRelay`).
 */
export function rememberingMentions(store: UnlockStore): UnlockStore {
  const mentions = new Map<string, RelayUnlock>();
  const keyOf = (conversation: string, relay: string) => `${conversation}\u0000${relay}`;
  const remember = (unlock: RelayUnlock | null): RelayUnlock | null => {
    if (unlock?.how === "mention") {
      if (mentions.size >= MAX_REMEMBERED) {
        mentions.clear();
      }
      mentions.set(keyOf(unlock.conversation, unlock.relay), unlock);
    }
    return unlock;
  };
  return {
    unlockRelay: async (input) => remember(await store.unlockRelay(input)) as RelayUnlock,
    async getRelayUnlock({ conversation, relay }) {
      return (
        mentions.get(keyOf(conversation, relay)) ??
        remember(await store.getRelayUnlock({ conversation, relay }))
      );
    },
    isRelayUnlocked: (key) => store.isRelayUnlocked(key),
    listRelayUnlocks: (conversation) => store.listRelayUnlocks(conversation),
    async forgetRelay(relay) {
      const name = relay.toLowerCase();
      const forget = () => {
        for (const [key, unlock] of mentions) {
          if (unlock.relay.toLowerCase() === name) {
            mentions.delete(key);
          }
        }
      };
      forget();
      const ended = await store.forgetRelay(relay);
      forget();
      return ended;
    },
  };
}
