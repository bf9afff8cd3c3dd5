import type {
  GroupStore,
  LeaseStore,
  PeerStore,
  QuestionStore,
  SessionStore,
  SettingsStore,
  TokenStore,
} from "@oar/engine";
import type { CardStore, LoopCounterStore, UnlockStore } from "@oar/permissions";
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

/** Every store port this package implements, on one database. */
export interface Stores {
  readonly sessions: SessionStore;
  readonly groups: GroupStore;
  readonly settings: SettingsStore;
  readonly tokens: TokenStore;
  readonly leases: LeaseStore;
  readonly cards: CardStore;
  readonly unlocks: UnlockStore;
  readonly loopCounters: LoopCounterStore;
  readonly questions: QuestionStore;
  readonly peers: PeerStore;
}

export function createStores(db: Database): Stores {
  return {
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
  };
}
