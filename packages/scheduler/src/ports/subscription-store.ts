import type { QuietHours, SubscribableEvent, SubscriptionEndReason, SubscriptionScope } from "@oar/schema";

/** A subscription of a conversation of this relay to sessions of this relay (§23–§32). */
export interface SubscriptionRecord {
  readonly id: string;
  /** The watching conversation. */
  readonly watcher: string;
  readonly scope: SubscriptionScope;
  /** The watched sessions of a `list` subscription (archived ones leave it, GAP-17); empty for `all`. */
  readonly sessions: readonly string[];
  /** Sessions an `all` subscription leaves out (R-FEW-18). */
  readonly exclude: readonly string[];
  /** The events it named; `null` follows the relay's default set (R-EVT-01, R-EVT-05). */
  readonly events: readonly SubscribableEvent[] | null;
  readonly once: boolean;
  readonly match: string | null;
  readonly stalledMinutes: number;
  readonly heartbeatMinutes: number | null;
  readonly digestMinutes: number | null;
  readonly quietHours: QuietHours | null;
  readonly createdAt: number;
  /** When its last digest went out (R-FEW-04: the next one comes N minutes after it). */
  readonly lastDigestAt: number | null;
  /** When its heartbeat or stall check is next due; `null` when it needs neither. */
  readonly nextTickAt: number | null;
  readonly endedAt: number | null;
  readonly endReason: SubscriptionEndReason | null;
}

export type NewSubscription = Omit<SubscriptionRecord, "lastDigestAt" | "endedAt" | "endReason">;

/** Subscriptions (R-SLIFE-01: they survive restarts). Every time comes from the caller's Clock. */
export interface SubscriptionStore {
  createSubscription(input: NewSubscription): Promise<SubscriptionRecord>;
  getSubscription(id: string): Promise<SubscriptionRecord | null>;
  /** The watcher's active subscriptions and those that ended at or after `endedSince`, oldest first. */
  listSubscriptions(options: {
    readonly watcher: string;
    readonly endedSince: number;
  }): Promise<SubscriptionRecord[]>;
  countActiveSubscriptions(watcher: string): Promise<number>;
  /**
   * The active subscriptions an event of `sessionId` may concern: `list` ones naming it and every
   * `all` one (the caller applies `exclude` and the own-conversation rule).
   */
  listSubscriptionsWatching(sessionId: string): Promise<SubscriptionRecord[]>;
  /** Every active subscription (owner views: `watched`, `watching`). */
  listActiveSubscriptions(): Promise<SubscriptionRecord[]>;
  /** Ends those of `ids` still active; returns the ids it ended. */
  endSubscriptions(input: {
    readonly ids: readonly string[];
    readonly reason: SubscriptionEndReason;
    readonly at: number;
  }): Promise<string[]>;
  /**
   * A session archived or deleted (R-SLIFE-02 (b), GAP-17): it leaves every `list` subscription
   * (one left with none ends as `archived`) and every `all` one keeps going without it; the
   * subscriptions it held as watcher end as `watcher_archived`. Returns the ids it ended.
   */
  forgetSession(input: { readonly sessionId: string; readonly at: number }): Promise<string[]>;
  /** Moves the active subscriptions of `from` to `to` (§31); returns their ids. */
  transferSubscriptions(input: { readonly from: string; readonly to: string }): Promise<string[]>;
  /**
   * Active subscriptions whose tick is due at `now`, locked for the caller's transaction (FOR
   * UPDATE SKIP LOCKED: another process's claim is skipped, never waited for).
   */
  claimDueTicks(input: { readonly now: number; readonly limit: number }): Promise<SubscriptionRecord[]>;
  setTiming(
    id: string,
    timing: { readonly lastDigestAt?: number | null; readonly nextTickAt?: number | null },
  ): Promise<void>;
  /** The earliest due tick of an active subscription; `null` when none is due ever. */
  nextTickAt(): Promise<number | null>;
}
