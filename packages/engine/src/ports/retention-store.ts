/**
 * What each kind of pruning removes (DESIGN §9: old rows are pruned as claimed due work). Every
 * kind is one table the relay would otherwise grow for ever.
 */
export type PruneKind = "events" | "deliveries" | "wakeups" | "firings" | "toolCalls" | "tasks";

export const PRUNE_KINDS: readonly PruneKind[] = [
  "events",
  "deliveries",
  "wakeups",
  "firings",
  "toolCalls",
  "tasks",
];

/**
 * One batch of an age rule: rows whose time is before `keptSince` go, at most `limit` of them; a
 * row of exactly `keptSince` stays, as the reads that bound a span include it (the cap's hour, a
 * task's readable hour, a paired relay's 7 days of replay).
 */
export interface AgedBatch {
  readonly keptSince: number;
  readonly limit: number;
}

/**
 * Deletes old rows in small batches. Every method deletes at most `limit` rows in one statement,
 * skips rows another transaction holds (they are in use, or another pruner has them), and returns
 * how many it deleted: fewer than `limit` when nothing more is due. Run outside transactions.
 */
export interface RetentionStore {
  /**
   * Outbox rows appended before `keptSince` that are of no use any more: routing has passed them
   * (seq at or below the routing cursor), no pending delivery still sends them (the sender reads
   * the event then), and they are not the newest row (its seq is where the outbox goes on, and
   * what the owner's stream checks a Last-Event-ID against).
   */
  pruneEvents(batch: AgedBatch): Promise<number>;
  /** Deliveries sent or dropped, created before `keptSince`: routing never stores their event for them again. */
  pruneDeliveries(batch: AgedBatch): Promise<number>;
  /** Wake-ups before `keptSince` (R-DLV-05's cap reads only the last hour's). */
  pruneWakeups(batch: AgedBatch): Promise<number>;
  /**
   * The recorded slots of schedules that ended before `keptSince`. A slot's row is the key that
   * keeps it from firing twice; an ended schedule fires no slot again, so its keys guard nothing.
   */
  pruneFirings(batch: AgedBatch): Promise<number>;
  /** Each session's tool calls beyond its newest `keep` (newest by time, then by order recorded). */
  pruneToolCalls(batch: { readonly keep: number; readonly limit: number }): Promise<number>;
  /** Tasks that ended before `keptSince` and whose output file is gone (`outputPath` null). */
  pruneTasks(batch: AgedBatch): Promise<number>;
  /**
   * After pruning: gives the deleted rows' space back to the tables and refreshes the planner's
   * statistics where the database does not do it itself (PGlite has no autovacuum); nothing
   * where it does. Never inside a transaction.
   */
  compact(kinds: readonly PruneKind[]): Promise<void>;
  /** How many rows each kind's table holds now (an operator's look, and the tests' measure). */
  countRows(): Promise<Readonly<Record<PruneKind, number>>>;
}
