import type { EngineStores } from "./engine";

/** A store of EngineStores, by its name there. */
export type StorePort = Exclude<keyof EngineStores, "transaction">;

/** Every port of EngineStores: the compiler checks the list is whole. */
export const STORE_PORTS = Object.keys({
  sessions: true,
  groups: true,
  settings: true,
  questions: true,
  cards: true,
  unlocks: true,
  loopCounters: true,
  peers: true,
  tokens: true,
  leases: true,
  events: true,
  subscriptions: true,
  deliveries: true,
  tasks: true,
  schedules: true,
  toolCalls: true,
} satisfies Record<StorePort, true>) as StorePort[];
