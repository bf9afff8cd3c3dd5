import { lazyProperties } from "@oar/core";
import type { EngineStores } from "@oar/engine";
import type { Database } from "../database";
import { createCardStore } from "./card-store";
import { createDeliveryStore } from "./delivery-store";
import { createEventStore } from "./event-store";
import { createGroupStore } from "./group-store";
import { guardStore, isOutage, unavailableError, withDeadline } from "./guard";
import { createLeaseStore } from "./lease-store";
import { createLoopCounterStore } from "./loop-counter-store";
import { createPeerStore } from "./peer-store";
import { createQuestionStore } from "./question-store";
import { createSessionStore } from "./session-store";
import { createSettingsStore } from "./settings-store";
import { createSubscriptionStore } from "./subscription-store";
import { createTokenStore } from "./token-store";
import { TransactionCalls } from "./transaction-calls";
import { createUnlockStore } from "./unlock-store";

/** Every store port this package implements, on one database, and transactions over them. */
export type Stores = EngineStores;

/** How long one database call, and one transaction, may go unanswered (a frozen link). */
export interface StoreDeadlines {
  readonly callMs: number;
  readonly transactionMs: number;
}

/**
 * Calls `listener` when another relay process may have appended outbox events; returns the
 * function that stops it. The postgres.js driver LISTENs for it; PGlite has no other process.
 */
export type ForeignEventsHint = (listener: () => void) => () => void;

/**
 * The stores on `db`. `transaction` runs its work on stores bound to one database transaction;
 * inside it, a transaction joins the outer one (the stores' own multi-statement writes become
 * savepoints there, so a refused name or membership leaves it usable). With `deadlines`, a call
 * or transaction the database does not answer in time fails with REMOTE_RELAY_UNAVAILABLE.
 * `foreignEvents` becomes the event store's `onForeignEvents`.
 */
export function createStores(
  db: Database,
  deadlines?: StoreDeadlines,
  foreignEvents?: ForeignEventsHint,
): Stores {
  const transaction: Stores["transaction"] = async (work) => {
    try {
      return await withDeadline("transaction", deadlines?.transactionMs, () =>
        db.transaction(async (tx) => {
          const calls = new TransactionCalls();
          try {
            return await work(storesOn(tx, "joined", deadlines?.callMs, foreignEvents, calls));
          } finally {
            await calls.end();
          }
        }),
      );
    } catch (cause) {
      // The work's own refusals and failures pass as they are; only an outage is translated.
      throw isOutage(cause) ? unavailableError("transaction", cause) : cause;
    }
  };
  return storesOn(db, transaction, deadlines?.callMs, foreignEvents);
}

function storesOn(
  db: Database,
  transaction: Stores["transaction"] | "joined",
  deadlineMs: number | undefined,
  foreignEvents: ForeignEventsHint | undefined,
  calls?: TransactionCalls,
): Stores {
  const guard = <T extends object>(port: string, store: T) => guardStore(port, store, deadlineMs, calls);
  const events = () => {
    const guarded = guard("EventStore", createEventStore(db));
    // The hint is not guarded: it returns its stop function at once and runs no query of its own.
    return foreignEvents === undefined ? guarded : { ...guarded, onForeignEvents: foreignEvents };
  };
  // Made on first use: a transaction uses a few of the ports, and making them all for each one
  // was a good part of what the relay allocates under load.
  const stores = lazyProperties<Omit<Stores, "transaction">>({
    sessions: () => guard("SessionStore", createSessionStore(db)),
    groups: () => guard("GroupStore", createGroupStore(db)),
    settings: () => guard("SettingsStore", createSettingsStore(db)),
    tokens: () => guard("TokenStore", createTokenStore(db)),
    leases: () => guard("LeaseStore", createLeaseStore(db)),
    cards: () => guard("CardStore", createCardStore(db)),
    unlocks: () => guard("UnlockStore", createUnlockStore(db)),
    loopCounters: () => guard("LoopCounterStore", createLoopCounterStore(db)),
    questions: () => guard("QuestionStore", createQuestionStore(db)),
    peers: () => guard("PeerStore", createPeerStore(db)),
    events,
    subscriptions: () => guard("SubscriptionStore", createSubscriptionStore(db)),
    deliveries: () => guard("DeliveryStore", createDeliveryStore(db)),
  }) as Stores;
  Object.defineProperty(stores, "transaction", {
    value:
      transaction === "joined" ? (work: Parameters<Stores["transaction"]>[0]) => work(stores) : transaction,
    enumerable: true,
  });
  return stores;
}
