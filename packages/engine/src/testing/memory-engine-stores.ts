import type { Snapshotting } from "@oar/core/testing";
import {
  createMemoryCardStore,
  createMemoryLoopCounterStore,
  createMemoryUnlockStore,
} from "@oar/permissions/testing";
import { createMemoryDeliveryStore, createMemorySubscriptionStore } from "@oar/scheduler/testing";
import type { EngineStores } from "../ports/engine-stores";
import { createMemoryEventStore } from "./memory-event-store";
import { createMemoryPeerStore } from "./memory-peer-store";
import { createMemoryQuestionStore } from "./memory-question-store";
import { createMemoryScheduleStore } from "./memory-schedule-store";
import { createMemorySessionReadStore } from "./memory-session-read-store";
import { createMemorySessionStores } from "./memory-session-stores";
import {
  createMemoryLeaseStore,
  createMemoryRetentionStore,
  createMemorySettingsStore,
  createMemoryTokenStore,
} from "./memory-stores";
import { createMemoryTaskStore } from "./memory-task-store";
import { createMemoryToolCallStore } from "./memory-tool-call-store";

/**
 * Every store the engine works on, in memory. A transaction runs alone (transactions queue behind
 * each other) and a failure puts every store back as it was when it began, as a database would;
 * writes made outside transactions while one runs are not isolated from it.
 */
export function createMemoryEngineStores(): EngineStores {
  const { sessions, groups, snapshot: snapshotSessions, isLive, history } = createMemorySessionStores();
  const parts = {
    settings: createMemorySettingsStore(),
    questions: createMemoryQuestionStore(),
    cards: createMemoryCardStore(),
    unlocks: createMemoryUnlockStore(),
    loopCounters: createMemoryLoopCounterStore(),
    peers: createMemoryPeerStore(),
    tokens: createMemoryTokenStore(),
    leases: createMemoryLeaseStore(),
    events: createMemoryEventStore(),
    subscriptions: createMemorySubscriptionStore(),
    deliveries: createMemoryDeliveryStore(),
    tasks: createMemoryTaskStore(),
    schedules: createMemoryScheduleStore(),
    toolCalls: createMemoryToolCallStore(isLive),
  };
  const retention = createMemoryRetentionStore({
    events: parts.events.rows,
    deliveries: parts.deliveries.rows.deliveries,
    wakeups: parts.deliveries.rows.wakeups,
    routingCursor: parts.deliveries.rows.cursor,
    schedules: parts.schedules.rows.schedules,
    firings: parts.schedules.rows.firings,
    toolCalls: parts.toolCalls.rows,
    tasks: parts.tasks.rows,
  });
  const snapshotting: readonly Snapshotting[] = [{ snapshot: snapshotSessions }, ...Object.values(parts)];
  let queue: Promise<unknown> = Promise.resolve();

  const joined: EngineStores = {
    sessions,
    groups,
    ...parts,
    reads: createMemorySessionReadStore({
      sessions,
      questions: parts.questions,
      tasks: parts.tasks,
      history,
    }),
    retention,
    transaction: (work) => work(joined),
  };
  return {
    ...joined,
    transaction<T>(work: (stores: EngineStores) => Promise<T>): Promise<T> {
      const run = queue.then(async () => {
        const restores = snapshotting.map((store) => store.snapshot());
        try {
          return await work(joined);
        } catch (error) {
          for (const restore of restores) {
            restore();
          }
          throw error;
        }
      });
      queue = run.catch(() => {});
      return run;
    },
  };
}
