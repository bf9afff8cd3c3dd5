import type { QuietHours, SubscribableEvent, SubscriptionEndReason, SubscriptionScope } from "@oar/schema";

/**
 * A subscription (§23–§32). Three kinds share the record:
 * - local: a conversation of this relay watches sessions of this relay (`watcherRelay` and
 *   `relay` null);
 * - remote watcher (§28, on the watched relay): `watcherRelay` names the paired relay whose
 *   conversation watches here; this relay sends it no message, that relay fetches its events;
 * - mirror (§28, on the watching relay): `relay` names the paired relay watched, `remoteId` the
 *   subscription there; it receives only the events fetched from there.
 */
export interface SubscriptionRecord {
  readonly id: string;
  /** The watching conversation (of `watcherRelay` when set, else of this relay). */
  readonly watcher: string;
  /** The paired relay (as it names itself) whose conversation watches; `null`: this relay's. */
  readonly watcherRelay: string | null;
  /** A mirror: the paired relay (as this relay names it) whose sessions are watched; `null`: this relay's. */
  readonly relay: string | null;
  /** A mirror: the subscription on `relay`. */
  readonly remoteId: string | null;
  /** A mirror: the replay cursor of the last event taken from `relay` (`null`: none yet). */
  readonly remoteCursor: string | null;
  /** A mirror: when its link was found lost (a `link_lost` was appended); `null` while it answers. */
  readonly linkLostAt: number | null;
  /** An ended mirror: when the subscription on `relay` was found ended too (`null`: not yet). */
  readonly remoteEndedAt: number | null;
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

/** A new subscription; the §28 fields default to a local one's (null). */
export type NewSubscription = Omit<
  SubscriptionRecord,
  | "lastDigestAt"
  | "endedAt"
  | "endReason"
  | "watcherRelay"
  | "relay"
  | "remoteId"
  | "remoteCursor"
  | "linkLostAt"
  | "remoteEndedAt"
> &
  Partial<Pick<SubscriptionRecord, "watcherRelay" | "relay" | "remoteId">>;

/** Subscriptions (R-SLIFE-01: they survive restarts). Every time comes from the caller's Clock. */
export interface SubscriptionStore {
  createSubscription(input: NewSubscription): Promise<SubscriptionRecord>;
  getSubscription(id: string): Promise<SubscriptionRecord | null>;
  /** The subscriptions of `ids` that exist, ended ones included, in no set order. */
  getSubscriptions(ids: readonly string[]): Promise<SubscriptionRecord[]>;
  /**
   * The watcher's active subscriptions and those that ended at or after `endedSince` (`null`: none
   * that ended), oldest first.
   */
  listSubscriptions(options: {
    readonly watcher: string;
    readonly endedSince: number | null;
  }): Promise<SubscriptionRecord[]>;
  countActiveSubscriptions(watcher: string): Promise<number>;
  /**
   * The active subscriptions an event of one of `sessionIds` may concern: `list` ones naming one
   * of them and every `all` one (the caller applies `exclude` and the own-conversation rule),
   * oldest first, each once. Mirrors (`relay` set) watch another relay's sessions and are never
   * among them.
   */
  listSubscriptionsWatching(sessionIds: readonly string[]): Promise<SubscriptionRecord[]>;
  /** The active subscriptions `watchers` hold, mirrors included, oldest first (owner views: `watching N sessions`). */
  listActiveSubscriptionsOf(watchers: readonly string[]): Promise<SubscriptionRecord[]>;
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
  /**
   * Moves the active subscriptions `from` holds on one relay to `to` (§31), both conversations of
   * `watcherRelay` (`null`: this relay's own). `mirrorsOf` names the paired relay whose
   * subscriptions' mirrors move (§28); without it, the subscriptions kept here move and the
   * mirrors stay. Returns the ids moved.
   */
  transferSubscriptions(input: {
    readonly from: string;
    readonly to: string;
    readonly watcherRelay: string | null;
    readonly mirrorsOf?: string;
  }): Promise<string[]>;
  /**
   * Active subscriptions whose tick is due at `now`, locked for the caller's transaction (FOR
   * UPDATE SKIP LOCKED: another process's claim is skipped, never waited for).
   */
  claimDueTicks(input: { readonly now: number; readonly limit: number }): Promise<SubscriptionRecord[]>;
  /** Moves the active subscriptions' next tick earlier, to `at`; one already due sooner keeps its time. */
  advanceTicks(input: { readonly ids: readonly string[]; readonly at: number }): Promise<void>;
  setTiming(
    id: string,
    timing: { readonly lastDigestAt?: number | null; readonly nextTickAt?: number | null },
  ): Promise<void>;
  /** Active mirrors (§28), of one paired relay when `relay` is given, oldest first. */
  listMirrors(options?: { readonly relay?: string }): Promise<SubscriptionRecord[]>;
  /** Ended mirrors whose subscription on the paired relay is not known to have ended, oldest first. */
  listMirrorsToEnd(): Promise<SubscriptionRecord[]>;
  /** A mirror's replay state: the cursor taken so far, whether its link is lost, whether it ended there. */
  setMirrorState(
    id: string,
    state: {
      readonly remoteCursor?: string | null;
      readonly linkLostAt?: number | null;
      readonly remoteEndedAt?: number | null;
    },
  ): Promise<void>;
  /** The earliest due tick of an active subscription; `null` when none is due ever. */
  nextTickAt(): Promise<number | null>;
}
