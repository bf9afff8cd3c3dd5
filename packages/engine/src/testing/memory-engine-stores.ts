import {
  createMemoryCardStore,
  createMemoryLoopCounterStore,
  createMemoryUnlockStore,
} from "@oar/permissions/testing";
import type { EngineStores } from "../engine";
import { createMemoryPeerStore } from "./memory-peer-store";
import { createMemoryQuestionStore } from "./memory-question-store";
import { createMemorySessionStores } from "./memory-session-stores";
import { createMemorySettingsStore } from "./memory-stores";

/** Every store the engine works on, in memory: sessions, groups, settings, questions, cards, unlocks, loop counters, peers. */
export function createMemoryEngineStores(): EngineStores {
  const { sessions, groups } = createMemorySessionStores();
  return {
    sessions,
    groups,
    settings: createMemorySettingsStore(),
    questions: createMemoryQuestionStore(),
    cards: createMemoryCardStore(),
    unlocks: createMemoryUnlockStore(),
    loopCounters: createMemoryLoopCounterStore(),
    peers: createMemoryPeerStore(),
  };
}
