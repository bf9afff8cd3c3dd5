import type { OutboxEvent, OutboxEventKind } from "@oar/schema";

/** One row of the outbox (DESIGN §3, §9): what happened, written in the change's own transaction. */
export interface OutboxRecord {
  /**
   * The event's place in the outbox. Readers see rows in this order and never a gap: a row
   * becomes visible only after every row with a smaller seq (the owner stream's `id:`).
   */
  readonly seq: number;
  readonly id: string;
  readonly kind: OutboxEventKind;
  /** The session it happened in; `null` for a subscription-wide event (all_idle, heartbeat). */
  readonly sessionId: string | null;
  /** Set for the events one subscription produces (all_idle, stalled, heartbeat). */
  readonly subscriptionId: string | null;
  /** The event as consumers receive it. */
  readonly event: OutboxEvent;
  readonly at: number;
}

export interface NewOutboxEvent {
  /** Also an idempotency key: an event whose id is already stored is not stored again. */
  readonly id: string;
  readonly sessionId: string | null;
  readonly subscriptionId?: string | null;
  readonly event: OutboxEvent;
  readonly at: number;
}

/**
 * The outbox: every lifecycle change appends its event in the same transaction as the change
 * (DESIGN §9), and every consumer (the subscription dispatcher, the owner's event stream, other
 * relay processes) reads the same rows.
 */
export interface EventStore {
  /** `null` when an event with this id is already stored (nothing is written then). */
  appendEvent(input: NewOutboxEvent): Promise<OutboxRecord | null>;
  /** Events with a seq above `after`, oldest first, at most `limit`. */
  listEvents(options: { readonly after: number; readonly limit: number }): Promise<OutboxRecord[]>;
  /** The events of these ids that are stored, in seq order. */
  getEvents(ids: readonly string[]): Promise<OutboxRecord[]>;
  /** The highest seq stored; 0 when the outbox is empty. */
  lastEventSeq(): Promise<number>;
  /** The highest seq of an event appended before `at`; 0 when there is none. */
  lastSeqBefore(at: number): Promise<number>;
  /** Whether the event of this seq is still stored: retention prunes old rows (DESIGN §9). */
  hasEventSeq(seq: number): Promise<boolean>;
  /**
   * Calls `listener` when another relay process may have appended events (Postgres LISTEN; a hint
   * only, behind polling). Returns the function that stops listening. Optional: stores shared by
   * no other process have nothing to report.
   */
  onForeignEvents?(listener: () => void): () => void;
}
