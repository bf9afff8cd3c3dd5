import type { CardStore, LoopCounterStore, UnlockStore } from "@oar/permissions";
import type { DeliveryStore, SubscriptionStore } from "@oar/scheduler";
import type { EventStore } from "./event-store";
import type { GroupStore } from "./group-store";
import type { LeaseStore } from "./lease-store";
import type { PeerStore } from "./peer-store";
import type { QuestionStore } from "./question-store";
import type { RetentionStore } from "./retention-store";
import type { ScheduleStore } from "./schedule-store";
import type { SessionReadStore } from "./session-read-store";
import type { SessionStore } from "./session-store";
import type { SettingsStore } from "./settings-store";
import type { TaskStore } from "./task-store";
import type { TokenStore } from "./token-store";
import type { ToolCallStore } from "./tool-call-store";

/** The stores the action engine works on (implemented by @oar/storage, or by memory stores in tests). */
export interface EngineStores {
  readonly sessions: SessionStore;
  readonly groups: GroupStore;
  readonly settings: SettingsStore;
  readonly questions: QuestionStore;
  /** Approval cards (DESIGN GAP-04). */
  readonly cards: CardStore;
  /** Paired relays unlocked per conversation (§3). */
  readonly unlocks: UnlockStore;
  /** The anti-loop guard's counts (GAP-04 (f)). */
  readonly loopCounters: LoopCounterStore;
  /** Paired relays (DESIGN §4 pairing). */
  readonly peers: PeerStore;
  /** Agent tokens and invites, as hashes (DESIGN §7). */
  readonly tokens: TokenStore;
  /** Each relay process's lease on the turns it runs (DESIGN §9). */
  readonly leases: LeaseStore;
  /** The outbox: every lifecycle change's event (DESIGN §3, §9). */
  readonly events: EventStore;
  /** Subscriptions (§23–§32). */
  readonly subscriptions: SubscriptionStore;
  /** Events on their way to watchers, wake-ups, the routing cursor. */
  readonly deliveries: DeliveryStore;
  /** Background tasks (§13). */
  readonly tasks: TaskStore;
  /** Durable schedules and their recorded slots (§33). */
  readonly schedules: ScheduleStore;
  /** The relay_tool calls of this relay's conversations (R-UI-02). */
  readonly toolCalls: ToolCallStore;
  /** The hot calls' reads across sessions, messages, questions and tasks, each in one round trip. */
  readonly reads: SessionReadStore;
  /** Old rows' pruning, across the tables above that would otherwise grow for ever (DESIGN §9). */
  readonly retention: RetentionStore;
  /**
   * Runs `work` on these stores bound to one transaction: every write it makes lands, or none
   * does (DESIGN §7: a refused or failed call changes nothing). Inside, use only the stores
   * `work` is given: on the embedded database's single connection any other query would wait
   * for the transaction to end. A transaction started inside one joins it.
   */
  transaction<T>(work: (stores: EngineStores) => Promise<T>): Promise<T>;
}

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
  reads: true,
  retention: true,
} satisfies Record<StorePort, true>) as StorePort[];
