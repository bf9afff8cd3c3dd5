import type { Clock, IdGenerator, Logger, TimerId } from "@oar/core";
import type { EngineStores } from "../ports/engine-stores";
import type { Lease } from "../ports/lease-store";
import { PRUNE_KINDS, type PruneKind } from "../ports/retention-store";
import { errorMessage } from "../shared/error-message";
import { CLOSE_GRACE_MS, settleWithin } from "../shared/settle-within";
import { PRUNE_RULES } from "./prune-rules";
import type { ResolvedRetention } from "./resolve-retention";

/** Each kind's lease is `retention:<kind>`: one process prunes a kind at a time (DESIGN §9). */
export const RETENTION_LEASE_PREFIX = "retention:";
/** Longer than a kind's batches of a pass can take; renewed after each, so a slow pass keeps it. */
const LEASE_MS = 5 * 60_000;
/** When a kind stopped at its batches per pass with rows left, the next pass comes this soon. */
const BACKLOG_MS = 1_000;

export interface PruneReport {
  /** Rows each kind deleted. */
  readonly pruned: Readonly<Record<PruneKind, number>>;
  /** Kinds another process was pruning (it held their lease): left to it. */
  readonly skipped: readonly PruneKind[];
  /** Kinds that stopped at `batchesPerPass` with rows left for the next pass. */
  readonly unfinished: readonly PruneKind[];
  /** Kinds whose pruning failed (logged); the next pass tries again. */
  readonly failed: readonly PruneKind[];
  /** Whether the pass compacted the tables it and the passes before it pruned. */
  readonly compacted: boolean;
}

/**
 * Prunes old rows as claimed due work (DESIGN §9), off the hot path: a pass on the clock's timer
 * every `everyMs`, each kind under its own lease, in statements of at most `batchSize` rows, at
 * most `batchesPerPass` of them a kind; a backlog goes on a second later, so other work gets the
 * database in between. What each kind keeps is RetentionStore's, how long is `options`'.
 */
export interface Pruner {
  /** Arms the timer: the first pass comes `everyMs` after the start, not during it. */
  start(): void;
  /** One pass now, after the one under way (tests, an operator); an empty report once closed. */
  pruneNow(): Promise<PruneReport>;
  /** Resolves when no pass runs. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface PrunerDeps {
  readonly stores: EngineStores;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly options: ResolvedRetention;
}

type KindOutcome = "done" | "unfinished" | "skipped" | "failed";

const noneOf = (): Record<PruneKind, number> =>
  Object.fromEntries(PRUNE_KINDS.map((kind) => [kind, 0])) as Record<PruneKind, number>;

export function createPruner(deps: PrunerDeps): Pruner {
  const { stores, clock, options } = deps;
  // Made at the first pass: an engine that never prunes takes no id from the generator.
  let owner: string | undefined;
  let timer: TimerId | null = null;
  let running: Promise<PruneReport> | null = null;
  let closed = false;
  // Compaction is occasional: the kinds pruned since the last one wait for `compactEveryMs`.
  const toCompact = new Set<PruneKind>();
  let compactedAt: number | null = null;

  /** The kind's batches under its lease; `pruned` counts what went even when a batch then fails. */
  const pruneKind = async (kind: PruneKind, pruned: Record<PruneKind, number>): Promise<KindOutcome> => {
    const name = `${RETENTION_LEASE_PREFIX}${kind}`;
    owner ??= deps.ids.next("runner");
    const holder = owner;
    const taken = await stores.leases.acquireLease({
      name,
      owner: holder,
      ttlMs: LEASE_MS,
      now: clock.now(),
    });
    if (!taken.ok) {
      return "skipped";
    }
    let lease: Lease = taken.value;
    try {
      for (let batch = 1; !closed; batch++) {
        const deleted = await PRUNE_RULES[kind](stores.retention, options, clock.now());
        pruned[kind] += deleted;
        if (deleted > 0) {
          toCompact.add(kind);
        }
        if (deleted < options.batchSize) {
          return "done";
        }
        if (batch >= options.batchesPerPass) {
          return "unfinished";
        }
        const renewed = await stores.leases.renewLease({
          name,
          owner: holder,
          fencingToken: lease.fencingToken,
          ttlMs: LEASE_MS,
          now: clock.now(),
        });
        if (!renewed.ok) {
          // Another process took the kind over (this one was slower than the lease): it goes on.
          return "done";
        }
        lease = renewed.value;
      }
      return "unfinished";
    } finally {
      await stores.leases.releaseLease({
        name,
        owner: holder,
        fencingToken: lease.fencingToken,
        now: clock.now(),
      });
    }
  };

  const compactIfDue = async (): Promise<boolean> => {
    const now = clock.now();
    if (toCompact.size === 0 || (compactedAt !== null && now - compactedAt < options.compactEveryMs)) {
      return false;
    }
    const kinds = PRUNE_KINDS.filter((kind) => toCompact.has(kind));
    await stores.retention.compact(kinds);
    compactedAt = now;
    for (const kind of kinds) {
      toCompact.delete(kind);
    }
    return true;
  };

  const pass = async (): Promise<PruneReport> => {
    const pruned = noneOf();
    const outcomes = new Map<PruneKind, KindOutcome>();
    for (const kind of PRUNE_KINDS) {
      if (closed) {
        break;
      }
      try {
        outcomes.set(kind, await pruneKind(kind, pruned));
      } catch (error) {
        outcomes.set(kind, "failed");
        deps.logger.warn("Pruning old rows failed; the next pass tries again.", {
          kind,
          error: errorMessage(error),
        });
      }
    }
    let compacted = false;
    try {
      compacted = !closed && (await compactIfDue());
    } catch (error) {
      deps.logger.warn("Compacting the pruned tables failed; a later pass tries again.", {
        error: errorMessage(error),
      });
    }
    const having = (outcome: KindOutcome) => PRUNE_KINDS.filter((kind) => outcomes.get(kind) === outcome);
    const total = PRUNE_KINDS.reduce((sum, kind) => sum + pruned[kind], 0);
    if (total > 0) {
      deps.logger.debug("Pruned old rows.", { ...pruned });
    }
    return {
      pruned,
      skipped: having("skipped"),
      unfinished: having("unfinished"),
      failed: having("failed"),
      compacted,
    };
  };

  const pruneNow = async (): Promise<PruneReport> => {
    while (running !== null) {
      await running.catch(() => {});
    }
    if (closed) {
      return { pruned: noneOf(), skipped: [], unfinished: [], failed: [], compacted: false };
    }
    const current = pass().finally(() => {
      running = null;
    });
    running = current;
    return current;
  };

  const arm = (ms: number) => {
    if (closed) {
      return;
    }
    timer = clock.setTimeout(() => {
      timer = null;
      void pruneNow().then(
        (report) => arm(report.unfinished.length > 0 ? BACKLOG_MS : options.everyMs),
        () => arm(options.everyMs),
      );
    }, ms);
  };

  return {
    start() {
      if (timer === null && !closed) {
        arm(options.everyMs);
      }
    },
    pruneNow,
    async settled() {
      while (running !== null) {
        await running.catch(() => {});
      }
    },
    async close() {
      closed = true;
      if (timer !== null) {
        clock.clearTimeout(timer);
        timer = null;
      }
      await settleWithin(clock, running, CLOSE_GRACE_MS);
    },
  };
}
