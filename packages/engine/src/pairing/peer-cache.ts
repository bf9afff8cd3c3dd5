import { type Clock, createTtlCache } from "@oar/core";
import type { PeerRecord, PeerStore } from "../ports/peer-store";

/** How long another relay process's pairing change may take to be seen here (DESIGN §9). */
export const PEERS_CACHE_MS = 1_000;

/**
 * Every call that names a relay other than "this" looks the pairings up; they change when the
 * owner pairs. The live pairings are read once per `ttlMs`; a pairing change made through this
 * store is seen at once. What a peer said (seen, lost) changes only its status fields, which
 * may lag by as much.
 */
export function cachingPeerStore(
  store: PeerStore,
  options: { readonly clock: Clock; readonly ttlMs?: number },
): PeerStore & { forgetAll(): void } {
  const cache = createTtlCache<"peers", PeerRecord[]>({
    clock: options.clock,
    ttlMs: options.ttlMs ?? PEERS_CACHE_MS,
  });
  const list = () => cache.get("peers", () => store.listPeers());
  const changing = async <T>(write: () => Promise<T>): Promise<T> => {
    cache.clear();
    const result = await write();
    cache.clear();
    return result;
  };
  return {
    createPeer: (input) => changing(() => store.createPeer(input)),
    async getPeer(name) {
      const wanted = name.toLowerCase();
      return (await list()).find((peer) => peer.name.toLowerCase() === wanted) ?? null;
    },
    listPeers: async () => [...(await list())],
    countPeers: async () => (await list()).length,
    updatePeer: (input) => changing(() => store.updatePeer(input)),
    recordPeerSeen: (input) => store.recordPeerSeen(input),
    recordPeerLost: (input) => store.recordPeerLost(input),
    removePeer: (input) => changing(() => store.removePeer(input)),
    forgetAll: () => cache.clear(),
  };
}
