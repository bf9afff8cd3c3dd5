import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { PeerRecord, PeerStore } from "../ports/peer-store";

/** In-memory PeerStore for tests; it passes the same contract suite as @oar/storage. */
export function createMemoryPeerStore(): PeerStore & Snapshotting {
  // Live pairings by id, in creation order; a removed pairing is dropped, its id stays used.
  const peers = new Map<string, PeerRecord>();
  const usedIds = new Set<string>();
  const key = (name: string) => name.toLowerCase();
  const find = (name: string) => [...peers.values()].find((peer) => key(peer.name) === key(name));
  const copy = (peer: PeerRecord): PeerRecord => ({
    ...peer,
    features: peer.features === null ? null : [...peer.features],
  });
  const change = (name: string, update: (peer: PeerRecord) => PeerRecord): PeerRecord | null => {
    const current = find(name);
    if (current === undefined) {
      return null;
    }
    const next = update(current);
    peers.set(next.id, next);
    return copy(next);
  };

  return refusingLikePostgres("PeerStore", {
    snapshot: () => snapshotOf(peers),
    async createPeer(input) {
      if (find(input.name) !== undefined) {
        return { ok: false, reason: "name_taken" };
      }
      if (usedIds.has(input.id)) {
        throw new Error(`A peer with id ${input.id} already exists.`);
      }
      const peer: PeerRecord = {
        id: input.id,
        name: input.name,
        url: input.url,
        level: input.level,
        token: input.token,
        remoteName: null,
        version: null,
        features: null,
        createdAt: input.createdAt,
        updatedAt: input.createdAt,
        lastSeenAt: null,
        linkLostAt: null,
      };
      usedIds.add(peer.id);
      peers.set(peer.id, peer);
      return { ok: true, peer: copy(peer) };
    },
    async getPeer(name) {
      const peer = find(name);
      return peer === undefined ? null : copy(peer);
    },
    async listPeers() {
      return [...peers.values()].sort((a, b) => a.createdAt - b.createdAt).map(copy);
    },
    async countPeers() {
      return peers.size;
    },
    async updatePeer({ name, patch, at }) {
      return change(name, (peer) => ({
        ...peer,
        url: patch.url ?? peer.url,
        token: patch.token ?? peer.token,
        level: patch.level ?? peer.level,
        updatedAt: at,
      }));
    },
    async recordPeerSeen({ name, remoteName, version, features, at }) {
      change(name, (peer) => ({
        ...peer,
        remoteName: remoteName ?? peer.remoteName,
        version,
        features: [...features],
        lastSeenAt: at,
      }));
    },
    async recordPeerLost({ name, at }) {
      change(name, (peer) => ({ ...peer, linkLostAt: at }));
    },
    async removePeer({ name }) {
      const peer = find(name);
      return peer === undefined ? false : peers.delete(peer.id);
    },
  });
}
