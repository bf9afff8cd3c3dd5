import type { PermissionLevel } from "@oar/schema";

/** A relay this one is paired with (DESIGN §4 pairing): how to reach it and what its agents may do there. */
export interface PeerRecord {
  readonly id: string;
  /** This relay's name for it: what agents pass as `relay` and the owner mentions (R-RLY-03). */
  readonly name: string;
  /** Its base URL (https:// unless loopback or private, R-HOP-06). */
  readonly url: string;
  /** Agents may (R-PERM-01): what this relay's agents may do there. */
  readonly level: PermissionLevel;
  /** The bearer this relay presents there: the invite token that relay issued. */
  readonly token: string;
  /** What it said at its last answer: its own name (which may differ from `name`), its version. */
  readonly remoteName: string | null;
  readonly version: string | null;
  readonly features: readonly string[] | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When it last answered; null until it has. */
  readonly lastSeenAt: number | null;
  /** When a call to it last went unanswered; null when none has. */
  readonly linkLostAt: number | null;
}

export interface NewPeer {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly level: PermissionLevel;
  readonly token: string;
  readonly createdAt: number;
}

export interface PeerPatch {
  readonly url?: string;
  readonly token?: string;
  readonly level?: PermissionLevel;
}

/**
 * The pairings of this relay. Names are unique among live pairings and compared
 * case-insensitively; a removed pairing is gone for every read, and its name is free again.
 */
export interface PeerStore {
  createPeer(
    input: NewPeer,
  ): Promise<
    { readonly ok: true; readonly peer: PeerRecord } | { readonly ok: false; readonly reason: "name_taken" }
  >;
  /** Case-insensitive; `null` for an unknown or removed pairing. */
  getPeer(name: string): Promise<PeerRecord | null>;
  /** Live pairings, oldest first. */
  listPeers(): Promise<PeerRecord[]>;
  countPeers(): Promise<number>;
  /** `null` for an unknown or removed pairing. Moves `updatedAt` to `at`. */
  updatePeer(input: {
    readonly name: string;
    readonly patch: PeerPatch;
    readonly at: number;
  }): Promise<PeerRecord | null>;
  /** The peer answered at `at`: keeps its own name (when given), version and features, `lastSeenAt = at`. */
  recordPeerSeen(input: {
    readonly name: string;
    readonly remoteName?: string;
    readonly version: string;
    readonly features: readonly string[];
    readonly at: number;
  }): Promise<void>;
  /** A call to the peer went unanswered at `at`: `linkLostAt = at`. */
  recordPeerLost(input: { readonly name: string; readonly at: number }): Promise<void>;
  /** `false` when there was no live pairing of that name. */
  removePeer(input: { readonly name: string; readonly at: number }): Promise<boolean>;
}
