/**
 * Why a delivery goes out when it does: the watcher's 30 s grouping window (R-DLV-04), at once
 * (urgent, R-DLV-06), its subscription's digest (R-FEW-04) or quiet hours (R-FEW-09), or the
 * hourly cap's 10-minute digest (R-DLV-05).
 */
export type DeliveryReason = "window" | "urgent" | "digest" | "quiet" | "cap";
export type DeliveryStatus = "pending" | "sent" | "dropped";

/** One event on its way to one watcher: the outbox's per-watcher row (DESIGN §3). */
export interface DeliveryRecord {
  readonly id: string;
  readonly watcher: string;
  /** The subscription that let it go first (R-FEW-21); `null` for an event that needs none (question_answered). */
  readonly subscriptionId: string | null;
  readonly eventId: string;
  readonly eventSeq: number;
  readonly reason: DeliveryReason;
  readonly dueAt: number;
  /**
   * A turn_end of a turn the watcher prompted itself (R-ECHO-01): dropped at sending time when
   * the watcher collected that turn's reply through send or wait; `null` otherwise.
   */
  readonly echoTurnId: string | null;
  readonly status: DeliveryStatus;
  /** The message it went out in. */
  readonly messageId: string | null;
  readonly createdAt: number;
}

/**
 * A delivery to store: pending, unless the transaction that routes it also sends it (or drops it)
 * — then it is stored settled, with its message, at `createdAt`, and never updated.
 */
export type NewDelivery = Omit<DeliveryRecord, "status" | "messageId"> & {
  readonly status?: DeliveryStatus;
  readonly messageId?: string | null;
};

/** A message the relay wrote into a watcher (a wake-up), for the hourly cap (R-DLV-05). */
export interface WakeupRecord {
  readonly messageId: string;
  readonly watcher: string;
  readonly at: number;
  /** `cap` for the cap's own digest, `urgent` when an urgent event made it, else `batch`. */
  readonly kind: "batch" | "urgent" | "cap";
}

/** What a subscription's digest or quiet hours hold now (R-LSUB-05). */
export interface HeldSummary {
  readonly subscriptionId: string;
  readonly heldCount: number;
  readonly nextDeliveryAt: number;
}

/**
 * Deliveries, wake-ups and the routing cursor. Routing reads the outbox once, in order: the cursor
 * is claimed by one process at a time. Sending claims the due deliveries of a watcher: another
 * process skips them (FOR UPDATE SKIP LOCKED). A delivery is keyed by (watcher, event): stored
 * twice, it is stored once; marked sent in the transaction that writes its message, it is never
 * sent twice, and a crash before that commit leaves it pending for the next pass.
 */
export interface DeliveryStore {
  /** The routing cursor (the last outbox seq routed), locked for the caller's transaction; `null` when another process holds it. */
  claimCursor(): Promise<number | null>;
  setCursor(seq: number): Promise<void>;
  /** Stores the deliveries; one whose (watcher, event) is already stored is skipped. */
  addDeliveries(rows: readonly NewDelivery[]): Promise<void>;
  /** Of the watchers' deliveries of these events, the (watcher, event) pairs already stored, whatever their status. */
  storedPairs(input: {
    readonly watchers: readonly string[];
    readonly eventIds: readonly string[];
  }): Promise<{ readonly watcher: string; readonly eventId: string }[]>;
  /** Where each watcher's open grouping window ends (its pending `window` deliveries' due time); watchers with none are absent. */
  openWindowEnds(watchers: readonly string[]): Promise<Map<string, number>>;
  /**
   * Urgent events close the watchers' windows: their pending `window` deliveries become due at
   * `at` — those of events before seq `before` only, when given (a window the batch reopened stays).
   * A delivery another transaction holds is left as it is: its sender is sending it.
   */
  closeWindows(input: {
    readonly watchers: readonly string[];
    readonly at: number;
    readonly before?: number;
  }): Promise<void>;
  /**
   * Every pending delivery due at `now` of up to `watchers` watchers, locked for the caller's
   * transaction; watchers another process is sending to are skipped. Ordered by watcher, then event.
   * With `after`, only watchers whose earliest pending delivery is due after it (a send made ready
   * ahead of its time takes no delivery that is late already).
   */
  claimDueDeliveries(input: {
    readonly now: number;
    readonly watchers: number;
    readonly after?: number;
  }): Promise<DeliveryRecord[]>;
  /** The watchers' pending deliveries due at `now`, by watcher, then event; nothing is locked. */
  listDueOf(input: { readonly watchers: readonly string[]; readonly now: number }): Promise<DeliveryRecord[]>;
  /**
   * Routing's claim of the watchers it just made due, taken in watcher order up to `limit`: each
   * gets its lock row if it has none yet and is locked for the caller's transaction; those another
   * process is sending to are skipped. Gives the watchers locked and their pending deliveries due
   * at `now`, by watcher, then event. With `closing`, the windows of those watchers close by being
   * sent: their pending `window` deliveries of events before seq `before` come too (one update of
   * each row, when it is sent, instead of two). The store may lock and read in one flight.
   */
  claimAmong(input: {
    readonly now: number;
    readonly among: readonly string[];
    readonly limit: number;
    readonly closing?: { readonly watchers: readonly string[]; readonly before: number };
  }): Promise<{ readonly watchers: string[]; readonly due: DeliveryRecord[] }>;
  /** Marks each message's deliveries sent with it: one call for every watcher a pass sends to. */
  markSent(input: {
    readonly messages: readonly { readonly messageId: string; readonly ids: readonly string[] }[];
    readonly at: number;
  }): Promise<void>;
  markDropped(input: { readonly ids: readonly string[]; readonly at: number }): Promise<void>;
  /** Holds pending deliveries longer (the hourly cap, an echo still in doubt). */
  postpone(input: {
    readonly ids: readonly string[];
    readonly dueAt: number;
    readonly reason: DeliveryReason;
  }): Promise<void>;
  /** The earliest due time of a pending delivery, or `null`. */
  nextDeliveryDueAt(): Promise<number | null>;
  /** What the subscriptions' digests, quiet hours and the cap hold now (pending, reason digest, quiet or cap). */
  heldBySubscriptions(subscriptionIds: readonly string[]): Promise<HeldSummary[]>;
  /**
   * Pending deliveries of `from` go to `to` (its held events move with its subscriptions, §31):
   * all of them, or those of `subscriptionIds` only when given.
   */
  moveWatcher(input: {
    readonly from: string;
    readonly to: string;
    readonly subscriptionIds?: readonly string[];
  }): Promise<void>;

  /** Stores the wake-ups; one whose message is already stored is skipped. */
  recordWakeups(wakeups: readonly WakeupRecord[]): Promise<void>;
  /** A message that grew (an event added before its commit) may change its wake-up's kind. */
  setWakeupKinds(
    kinds: readonly { readonly messageId: string; readonly kind: WakeupRecord["kind"] }[],
  ): Promise<void>;
  /** The watchers' wake-ups at or after `since`, oldest first. */
  listWakeups(input: {
    readonly watchers: readonly string[];
    readonly since: number;
  }): Promise<WakeupRecord[]>;

  /** R-ECHO-01: the conversation that prompted a turn got its finished reply through send or wait. */
  recordCollectedReply(input: {
    readonly turnId: string;
    readonly sessionId: string;
    readonly at: number;
  }): Promise<void>;
  /** Of `turnIds`, those whose reply `sessionId` collected. */
  collectedReplies(input: {
    readonly sessionId: string;
    readonly turnIds: readonly string[];
  }): Promise<string[]>;
}
