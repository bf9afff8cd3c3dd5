import type { Result } from "@oar/core";

/**
 * A named lease (a session's worker, a due-work poller) held by one process until `expiresAt`.
 * The fencing token grows every time the lease changes hands, so a holder that lost it can be
 * told apart from the current one by any write it tags with its token.
 */
export interface Lease {
  readonly name: string;
  readonly owner: string;
  readonly fencingToken: number;
  readonly expiresAt: number;
}

/** Why a lease was refused: who holds it now (`null` when nobody ever took it). */
export interface LeaseRefusal {
  readonly holder: Lease | null;
}

export interface LeaseRequest {
  readonly name: string;
  readonly owner: string;
  readonly ttlMs: number;
  readonly now: number;
}

export interface LeaseStore {
  /**
   * Takes the lease when it is free, expired (`expiresAt <= now`) or already this owner's. A
   * live lease re-acquired by its owner keeps its token; any other taking raises the token.
   */
  acquireLease(request: LeaseRequest): Promise<Result<Lease, LeaseRefusal>>;
  /** Extends the lease while `owner` and `fencingToken` still name the holder. */
  renewLease(request: LeaseRequest & { readonly fencingToken: number }): Promise<Result<Lease, LeaseRefusal>>;
  /** Lets the lease go at `now`; false when this owner and token no longer hold it. */
  releaseLease(input: {
    readonly name: string;
    readonly owner: string;
    readonly fencingToken: number;
    readonly now: number;
  }): Promise<boolean>;
  /** The last holder, expired or not. */
  getLease(name: string): Promise<Lease | null>;
  /** The leases named `prefix…` that expired at or before `now`, oldest expiry first. */
  listExpiredLeases(input: { readonly prefix: string; readonly now: number }): Promise<Lease[]>;
  /**
   * Removes a lease that expired at or before `now` and still has that token: true for the one
   * caller that removed it (a recovery that takes over its holder's work); the old holder's
   * renewals fail from then on. Only for leases whose name is never taken again.
   */
  retireLease(input: {
    readonly name: string;
    readonly fencingToken: number;
    readonly now: number;
  }): Promise<boolean>;
}
