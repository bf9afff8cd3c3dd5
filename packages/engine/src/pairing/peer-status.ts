import { isRelayError } from "@oar/core";
import type { ErrorCode } from "@oar/schema";
import type { EngineDeps } from "../ports/engine-deps";
import type { PeerRecord } from "../ports/peer-store";

/** Whether a paired relay answers, and what it said (R-LREL-01: `online`, `version`). */
export interface PeerStatus {
  readonly online: boolean;
  readonly version: string | null;
  readonly features: readonly string[] | null;
  /** Why it cannot be used, when it cannot: it does not answer, or it answers and refuses this relay. */
  readonly problem: string | null;
  /**
   * The code a call to it gets while that lasts (R-ERR-04, "its usual code"):
   * REMOTE_RELAY_UNREACHABLE when it does not answer, its own refusal's code when it answers and
   * refuses; null without a problem.
   */
  readonly problemCode: ErrorCode | null;
}

/** How long a peer's answer to GET /v1/peer/info stands for it. */
export const PEER_STATUS_TTL_MS = 15_000;

interface Entry {
  readonly at: number;
  readonly status: Promise<PeerStatus>;
}

/** The last asking of each peer, by lowercase name; asking again while one is under way reuses it. */
export interface PeerStatusCache {
  get(name: string): Entry | undefined;
  set(name: string, entry: Entry): void;
  forget(name: string): void;
}

export function createPeerStatusCache(): PeerStatusCache {
  const entries = new Map<string, Entry>();
  return {
    get: (name) => entries.get(name.toLowerCase()),
    set: (name, entry) => {
      entries.set(name.toLowerCase(), entry);
    },
    forget: (name) => {
      entries.delete(name.toLowerCase());
    },
  };
}

/** What the row says of the peer, without asking it: online when its last answer came after its last failure. */
export function knownStatus(peer: PeerRecord): PeerStatus {
  const online = peer.lastSeenAt !== null && (peer.linkLostAt === null || peer.lastSeenAt >= peer.linkLostAt);
  return { online, version: peer.version, features: peer.features, problem: null, problemCode: null };
}

/** What an exchange that failed says of the peer: it answered and refused, or it did not answer. */
export function problemOf(error: unknown): {
  readonly answered: boolean;
  readonly problem: string;
  readonly problemCode: ErrorCode;
} {
  if (isRelayError(error) && error.code === "REMOTE_RELAY_AUTH") {
    return {
      answered: true,
      problem: "it refuses this relay's token: pair again with a new invite from it",
      problemCode: "REMOTE_RELAY_AUTH",
    };
  }
  if (isRelayError(error) && !error.isLocal()) {
    return { answered: true, problem: error.message, problemCode: error.code as ErrorCode };
  }
  return {
    answered: false,
    problem: `it does not answer (${error instanceof Error ? error.message : String(error)})`,
    problemCode: "REMOTE_RELAY_UNREACHABLE",
  };
}

async function ask(deps: EngineDeps, peer: PeerRecord): Promise<PeerStatus> {
  const { peerLink, clock, stores } = deps;
  if (!peerLink) {
    return {
      ...knownStatus(peer),
      online: false,
      problem: "this relay has no network to paired relays",
      problemCode: "REMOTE_RELAY_UNREACHABLE",
    };
  }
  try {
    const info = await peerLink.info({ name: peer.name, url: peer.url, token: peer.token });
    await stores.peers.recordPeerSeen({
      name: peer.name,
      remoteName: info.name,
      version: info.version,
      features: info.features,
      at: clock.now(),
    });
    return { online: true, version: info.version, features: info.features, problem: null, problemCode: null };
  } catch (error) {
    const { answered, problem, problemCode } = problemOf(error);
    if (!answered) {
      await stores.peers.recordPeerLost({ name: peer.name, at: clock.now() });
    }
    return { online: answered, version: peer.version, features: peer.features, problem, problemCode };
  }
}

/** The peer's status, asked at most once per PEER_STATUS_TTL_MS; a failure to answer is `online: false`. */
export function peerStatus(
  deps: EngineDeps,
  cache: PeerStatusCache,
  peer: PeerRecord,
  options: { readonly fresh?: boolean } = {},
): Promise<PeerStatus> {
  const now = deps.clock.now();
  const cached = cache.get(peer.name);
  if (cached && options.fresh !== true && now - cached.at < PEER_STATUS_TTL_MS) {
    return cached.status;
  }
  const status = ask(deps, peer);
  cache.set(peer.name, { at: now, status });
  return status;
}

/** After a call to the peer went through or failed, its status is what that exchange showed. */
export function notePeerAnswered(
  deps: EngineDeps,
  cache: PeerStatusCache,
  peer: PeerRecord,
  outcome: {
    readonly answered: boolean;
    readonly problem: string | null;
    readonly problemCode: ErrorCode | null;
  },
): Promise<void> {
  const { answered, problem, problemCode } = outcome;
  const now = deps.clock.now();
  if (answered && problem === null && peer.version === null) {
    // Never asked who it is: the next status asks it.
    cache.forget(peer.name);
    return Promise.resolve();
  }
  const was = knownStatus(peer);
  cache.set(peer.name, {
    at: now,
    status: Promise.resolve({ ...was, online: answered, problem, problemCode }),
  });
  if (!answered) {
    return deps.stores.peers.recordPeerLost({ name: peer.name, at: now });
  }
  // One write when the link comes back or the row is old, not one per call.
  const fresh = was.online && peer.lastSeenAt !== null && now - peer.lastSeenAt < PEER_STATUS_TTL_MS;
  return fresh || peer.version === null
    ? Promise.resolve()
    : deps.stores.peers.recordPeerSeen({
        name: peer.name,
        version: peer.version,
        features: peer.features ?? [],
        at: now,
      });
}

/**
 * The pairing's record with what the peer said of itself in `status`, which may be newer than the
 * row the call loaded (it asked GET /v1/peer/info meanwhile): what a later exchange notes of the
 * peer then keeps that version and those features, not the row's older ones.
 */
export function seenAs(peer: PeerRecord, status: PeerStatus): PeerRecord {
  return status.version === null ? peer : { ...peer, version: status.version, features: status.features };
}
