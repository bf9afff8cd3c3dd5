/**
 * Why a card asks the owner (DESIGN §6 GAP-04): (a) first create_session of a conversation,
 * (b) first subscribe, (c) a write in `ask`/`plan` mode, (d) update_session of a session the
 * conversation did not start, (e) transfer_subscriptions, (f) the anti-loop guard.
 */
export type CardKind =
  | "first_create_session"
  | "first_subscribe"
  | "write_in_mode"
  | "update_other_session"
  | "transfer_subscriptions"
  | "anti_loop";

export type CardStatus = "pending" | "allowed" | "denied" | "expired";
export type CardDecision = "allowed" | "denied";

export interface CardRecord {
  readonly id: string;
  readonly kind: CardKind;
  /** The conversation (session id) whose agent made the call. */
  readonly conversation: string;
  /** The relay_tool action waiting on the card. */
  readonly action: string;
  readonly targetRelay: string;
  readonly targetSession: string | null;
  /** What the card asks the owner, worded when it was raised (`""` when none was given). */
  readonly text: string;
  /** Lines the card shows (`Model: … · Effort: …`, `Group: Release 2.4 (grp_…)`). */
  readonly detail: readonly string[];
  readonly status: CardStatus;
  readonly createdAt: number;
  readonly answeredAt: number | null;
  readonly expiresAt: number;
}

export interface NewCard {
  readonly id: string;
  readonly kind: CardKind;
  readonly conversation: string;
  readonly action: string;
  readonly targetRelay: string;
  readonly targetSession?: string | null;
  /** Defaults to `""`. */
  readonly text?: string;
  readonly detail?: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface ListCardsFilter {
  readonly status?: CardStatus;
  readonly conversation?: string;
  readonly kind?: CardKind;
}

/** Approval cards. Times are epoch milliseconds from the caller's Clock. */
export interface CardStore {
  createCard(input: NewCard): Promise<CardRecord>;
  getCard(id: string): Promise<CardRecord | null>;
  /** Oldest first. */
  listCards(filter?: ListCardsFilter): Promise<CardRecord[]>;
  /**
   * Compare-and-set: records the decision only if the card is still pending and not past its
   * expiry at `at`. True for the one answer that won.
   */
  answerCard(input: {
    readonly id: string;
    readonly decision: CardDecision;
    readonly at: number;
  }): Promise<boolean>;
  /** Marks `expired` every pending card whose `expiresAt <= now`; returns them. */
  expireCards(now: number): Promise<CardRecord[]>;
}

/** How a paired relay was unlocked in a conversation (R-LOCK-01): the user mentioned it, or its agent wrote. */
export type UnlockHow = "mention" | "agent";

export interface RelayUnlock {
  readonly conversation: string;
  readonly relay: string;
  readonly how: UnlockHow;
  readonly unlockedAt: number;
}

/** Relays unlocked per conversation; an unlock lasts for the rest of the conversation (R-LOCK-03). */
export interface UnlockStore {
  /**
   * Records the unlock and returns the one in force: a second unlock keeps the first `how`,
   * except that a mention upgrades an `agent` unlock (the hop rule trusts mentions only).
   */
  unlockRelay(input: {
    readonly conversation: string;
    readonly relay: string;
    readonly how: UnlockHow;
    readonly at: number;
  }): Promise<RelayUnlock>;
  getRelayUnlock(input: {
    readonly conversation: string;
    readonly relay: string;
  }): Promise<RelayUnlock | null>;
  isRelayUnlocked(input: { readonly conversation: string; readonly relay: string }): Promise<boolean>;
  /** Oldest first. */
  listRelayUnlocks(conversation: string): Promise<RelayUnlock[]>;
  /**
   * Ends every unlock of that relay name (any case), in every conversation: its pairing was
   * removed, and a relay paired later under the name starts locked. Returns how many ended.
   */
  forgetRelay(relay: string): Promise<number>;
}

/** The anti-loop guard's count of prompts to other agents since the owner last wrote (GAP-04 (f)). */
export interface LoopCounterStore {
  /** Adds one and returns the new count, atomically. */
  incrementLoopCounter(conversation: string): Promise<number>;
  resetLoopCounter(conversation: string): Promise<void>;
  /** 0 for a conversation never counted. */
  getLoopCounter(conversation: string): Promise<number>;
}
