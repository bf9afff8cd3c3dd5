import type { PruneKind, RetentionStore } from "../ports/retention-store";
import type { ResolvedRetention } from "./resolve-retention";

/** One batch of a kind's pruning at `now`: how many rows it deleted. */
export type PruneBatch = (store: RetentionStore, options: ResolvedRetention, now: number) => Promise<number>;

/** Each kind's rule: what it keeps is in the store's port, how old is in the options. */
export const PRUNE_RULES: { readonly [Kind in PruneKind]: PruneBatch } = {
  events: (store, options, now) =>
    store.pruneEvents({ keptSince: now - options.eventsKeptMs, limit: options.batchSize }),
  deliveries: (store, options, now) =>
    store.pruneDeliveries({ keptSince: now - options.deliveriesKeptMs, limit: options.batchSize }),
  wakeups: (store, options, now) =>
    store.pruneWakeups({ keptSince: now - options.wakeupsKeptMs, limit: options.batchSize }),
  firings: (store, options, now) =>
    store.pruneFirings({ keptSince: now - options.firingsKeptMs, limit: options.batchSize }),
  toolCalls: (store, options) =>
    store.pruneToolCalls({ keep: options.toolCallsKept, limit: options.batchSize }),
  tasks: (store, options, now) =>
    store.pruneTasks({ keptSince: now - options.tasksKeptMs, limit: options.batchSize }),
};
