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
  /** The process holding it, as it said when it took the lease; `null` when it did not say. */
  readonly process: LeaseProcess | null;
  /** The holder's instance id, which its children carry (RunnerProcess.instance); `null` when it named none. */
  readonly instance: string | null;
  /** How the other processes of a cluster reach the holder (DESIGN §9); `null` until it says. */
  readonly address: string | null;
}

/**
 * A process as another one on its host can check it: `host` names the pid space (two processes
 * with the same `host` see each other's pids), `pid` is the process there.
 */
export interface LeaseProcess {
  readonly host: string;
  readonly pid: number;
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

export interface LeaseAcquisition extends LeaseRequest {
  /** Recorded on the lease (its `process`), so that a process of the same host can tell it died. */
  readonly process?: LeaseProcess;
  /** Recorded on the lease (its `instance`, its `address`). */
  readonly instance?: string;
  readonly address?: string;
}

export interface LeaseStore {
  /**
   * Takes the lease when it is free, expired (`expiresAt <= now`) or already this owner's. A
   * live lease re-acquired by its owner keeps its token; any other taking raises the token. The
   * lease records `process` (null without it).
   */
  acquireLease(request: LeaseAcquisition): Promise<Result<Lease, LeaseRefusal>>;
  /**
   * Extends the lease while `owner` and `fencingToken` still name the holder; its `process` and
   * `instance` stay, its `address` becomes `address` when given (`null` keeps it too).
   */
  renewLease(
    request: LeaseRequest & { readonly fencingToken: number; readonly address?: string | null },
  ): Promise<Result<Lease, LeaseRefusal>>;
  /** Lets the lease go at `now`; false when this owner and token no longer hold it. */
  releaseLease(input: {
    readonly name: string;
    readonly owner: string;
    readonly fencingToken: number;
    readonly now: number;
  }): Promise<boolean>;
  /**
   * Whether the lease still has `fencingToken`: neither retired nor taken over (expired or not: a
   * recovery retires it before it fails the work claimed under it). In a transaction it also keeps
   * the lease from being retired until that transaction ends (a row lock), so work claimed under
   * it there is either seen by the recovery that retires it or not claimed at all.
   */
  holdsLease(input: { readonly name: string; readonly fencingToken: number }): Promise<boolean>;
  /** The last holder, expired or not. */
  getLease(name: string): Promise<Lease | null>;
  /** The leases named `prefix…`, live and expired, in no set order. */
  listLeases(input: { readonly prefix: string }): Promise<Lease[]>;
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

/**
 * This relay process as its runner lease names it, and how it checks another process of its
 * host: a lease of this `host` whose pid is gone belongs to a process that will never renew it,
 * so its turns are recovered at once instead of when it expires.
 */
export interface RunnerProcess extends LeaseProcess {
  /** Whether the process with this pid (on this host) still runs. */
  readonly isAlive: (pid: number) => boolean;
  /**
   * This process's instance id: every process it starts (agents' CLIs, tasks, git) carries it in
   * its environment, so that once this process is gone another one of its host finds and ends them.
   */
  readonly instance?: string;
  /** Ends the processes of this host that carry `instance` (a gone relay process's children); how many. */
  readonly reap?: (instance: string) => Promise<number>;
}
