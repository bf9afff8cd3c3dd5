import type { EngineStores } from "@oar/engine";
import type { Database } from "../database";
import { createCardStore } from "./card-store";
import { createGroupStore } from "./group-store";
import { guardStore } from "./guard";
import { createLeaseStore } from "./lease-store";
import { createLoopCounterStore } from "./loop-counter-store";
import { createPeerStore } from "./peer-store";
import { createQuestionStore } from "./question-store";
import { createSessionStore } from "./session-store";
import { createSettingsStore } from "./settings-store";
import { createTokenStore } from "./token-store";
import { createUnlockStore } from "./unlock-store";

/** Every store port this package implements, on one database, and transactions over them. */
export type Stores = EngineStores;

/**
 * The stores on `db`. `transaction` runs its work on stores bound to one database transaction;
 * inside it, a transaction joins the outer one (the stores' own multi-statement writes become
 * savepoints there, so a refused name or membership leaves it usable).
 */
export function createStores(db: Database): Stores {
  return storesOn(db, (work) => db.transaction((tx) => work(storesOn(tx, "joined"))));
}

function storesOn(db: Database, transaction: Stores["transaction"] | "joined"): Stores {
  const stores: Stores = {
    sessions: guardStore("SessionStore", createSessionStore(db)),
    groups: guardStore("GroupStore", createGroupStore(db)),
    settings: guardStore("SettingsStore", createSettingsStore(db)),
    tokens: guardStore("TokenStore", createTokenStore(db)),
    leases: guardStore("LeaseStore", createLeaseStore(db)),
    cards: guardStore("CardStore", createCardStore(db)),
    unlocks: guardStore("UnlockStore", createUnlockStore(db)),
    loopCounters: guardStore("LoopCounterStore", createLoopCounterStore(db)),
    questions: guardStore("QuestionStore", createQuestionStore(db)),
    peers: guardStore("PeerStore", createPeerStore(db)),
    transaction: transaction === "joined" ? (work) => work(stores) : transaction,
  };
  return stores;
}
