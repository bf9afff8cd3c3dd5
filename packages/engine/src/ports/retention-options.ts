/**
 * How the relay prunes old rows (DESIGN §9), as the app gives it; every field has a default. Ages
 * are measured on the engine's Clock: a row goes once it is older than its span; one exactly that
 * old stays, as the reads that bound a span (the cap's hour, a replay's 7 days) still include it.
 */
export interface RetentionOptions {
  /** How often a pass looks for rows to prune; default one minute. */
  readonly everyMs?: number;
  /** Rows one statement deletes at most; default 500. */
  readonly batchSize?: number;
  /** Statements one kind runs in a pass at most; what is left goes in the next pass, a second later. */
  readonly batchesPerPass?: number;
  /** Outbox rows, once routed; default and least 7 days (R-PAIR-04: a paired relay replays that far). */
  readonly eventsKeptMs?: number;
  /** Deliveries, once sent or dropped, from their creation; default a day. */
  readonly deliveriesKeptMs?: number;
  /** Wake-ups; default 2 hours, least the hour the cap counts (R-DLV-05). */
  readonly wakeupsKeptMs?: number;
  /** A schedule's recorded slots, from its end; default a day. */
  readonly firingsKeptMs?: number;
  /** An ended task's row, from its end and once its output is removed; default a day, least an hour (R-RTO-01). */
  readonly tasksKeptMs?: number;
  /** Tool calls kept per conversation, the newest; default and least 200, what its activity shows (R-UI-02). */
  readonly toolCallsKept?: number;
  /** How often, at most, pruned tables are compacted where the database does not do it itself; default an hour. */
  readonly compactEveryMs?: number;
}
