import type { TurnRunner } from "../ports/session-store";
import { errorMessage } from "../shared/error-message";
import { isOutage } from "../shared/outage";
import type { RuntimeContext } from "./runtime-context";

/**
 * Each relay process holds a lease on the turns it runs (DESIGN §9): a row it renews while it
 * lives. A process that stops renewing (killed, frozen, cut off) loses it once it expires, and
 * another process recovers its turns; the lost holder cannot end them any more (fencing).
 */
export const RUNNER_LEASE_PREFIX = "runner:";
export const RUNNER_LEASE_TTL_MS = 15_000;
/** Renewals, recovery of expired runners and the look for queues nobody drives, this often. */
export const RUNNER_HEARTBEAT_MS = 5_000;

export interface RunnerLease {
  /** The runner turns are claimed under now; undefined until started, or while a new lease is sought. */
  current(): TurnRunner | undefined;
  start(): Promise<void>;
  /** Renews now: a changed address is written at once instead of at the next heartbeat. */
  renewNow(): Promise<void>;
  /** Stops renewing and lets the lease go, so another process recovers at once what this one leaves. */
  close(): Promise<void>;
}

export interface RunnerLeaseHooks {
  /** Another process took this one's lease over: stop every turn here, writing nothing. */
  readonly lost: () => void;
  /** Each heartbeat, after the lease was renewed: recover expired runners, look at idle queues. */
  readonly beat: () => Promise<void>;
}

export function createRunnerLease(ctx: RuntimeContext, hooks: RunnerLeaseHooks): RunnerLease {
  const { leases } = ctx.stores;
  let held: { readonly name: string; readonly owner: string; readonly token: number } | undefined;
  let timer: ReturnType<typeof ctx.clock.setTimeout> | undefined;
  let stopped = false;

  const acquire = async () => {
    const owner = ctx.ids.next("runner");
    const name = `${RUNNER_LEASE_PREFIX}${owner}`;
    const self = ctx.runnerProcess;
    const address = ctx.address();
    const taken = await leases.acquireLease({
      name,
      owner,
      ttlMs: RUNNER_LEASE_TTL_MS,
      now: ctx.clock.now(),
      ...(self === undefined ? {} : { process: { host: self.host, pid: self.pid } }),
      ...(self?.instance === undefined ? {} : { instance: self.instance }),
      ...(address === undefined ? {} : { address }),
    });
    // A name never used before is always free.
    if (taken.ok) {
      held = { name, owner, token: taken.value.fencingToken };
    }
  };

  const renew = async () => {
    if (!held) {
      await acquire();
      return;
    }
    const address = ctx.address();
    const renewed = await leases.renewLease({
      name: held.name,
      owner: held.owner,
      fencingToken: held.token,
      ttlMs: RUNNER_LEASE_TTL_MS,
      now: ctx.clock.now(),
      ...(address === undefined ? {} : { address }),
    });
    if (!renewed.ok) {
      ctx.logger.warn("This relay process lost its lease: another process recovered its turns.", {
        lease: held.name,
      });
      held = undefined;
      hooks.lost();
      await acquire();
    }
  };

  const heartbeat = async () => {
    try {
      await renew();
      await hooks.beat();
    } catch (error) {
      // Retried at the next beat either way; an outage is expected, anything else is a bug.
      const fields = { error: errorMessage(error) };
      if (isOutage(error)) {
        ctx.logger.warn("A relay heartbeat found the database not answering.", fields);
      } else {
        ctx.logger.error("A relay heartbeat failed.", fields);
      }
    }
    schedule();
  };

  const schedule = () => {
    if (!stopped && !ctx.isClosed()) {
      timer = ctx.clock.setTimeout(() => void heartbeat(), RUNNER_HEARTBEAT_MS);
    }
  };

  return {
    current: () => (held ? { lease: held.name, token: held.token } : undefined),
    async start() {
      await acquire();
      schedule();
    },
    async renewNow() {
      // The heartbeat retries; a database away now only delays the news.
      await renew().catch((error: unknown) =>
        ctx.logger.warn("This relay process could not renew its lease now.", { error: errorMessage(error) }),
      );
    },
    async close() {
      stopped = true;
      if (timer !== undefined) {
        ctx.clock.clearTimeout(timer);
      }
      const last = held;
      held = undefined;
      if (last) {
        await leases
          .releaseLease({
            name: last.name,
            owner: last.owner,
            fencingToken: last.token,
            now: ctx.clock.now(),
          })
          .catch((error: unknown) =>
            ctx.logger.warn("Letting this process's lease go failed; it expires by itself.", {
              error: errorMessage(error),
            }),
          );
      }
    },
  };
}
