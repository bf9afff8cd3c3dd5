import {
  runAtomicChangesContract,
  runEventStoreContract,
  runGroupStoreContract,
  runLeaseStoreContract,
  runPeerStoreContract,
  runQuestionStoreContract,
  runRetentionStoreContract,
  runScheduleStoreContract,
  runSessionReadStoreContract,
  runSessionStoreContract,
  runSettingsStoreContract,
  runTaskStoreContract,
  runTokenStoreContract,
  runToolCallStoreContract,
} from "@oar/engine/testing";
import {
  runCardStoreContract,
  runLoopCounterStoreContract,
  runUnlockStoreContract,
} from "@oar/permissions/testing";
import { runDeliveryStoreContract, runSubscriptionStoreContract } from "@oar/scheduler/testing";
import { describe } from "vitest";
import type { Stores } from "../src";
import { type TestDatabase, useTestStorage } from "./databases";

/** Every contract suite of the ports this package implements, against one kind of database. */
export function describeStoreContracts(database: TestDatabase): void {
  describe.skipIf(!database.available)(`store contracts on ${database.name}`, () => {
    const test = useTestStorage(database);
    const fixture =
      <S>(pick: (stores: Stores) => S) =>
      async () => ({ store: pick(test.storage().stores), cleanup: test.empty });

    runSessionStoreContract(fixture((stores) => stores.sessions));
    runGroupStoreContract(async () => ({
      ...(await fixture((stores) => stores.groups)()),
      sessions: test.storage().stores.sessions,
    }));
    runQuestionStoreContract(async () => ({
      ...(await fixture((stores) => stores.questions)()),
      sessions: test.storage().stores.sessions,
    }));
    runSettingsStoreContract(fixture((stores) => stores.settings));
    runTaskStoreContract(async () => ({
      ...(await fixture((stores) => stores.tasks)()),
      sessions: test.storage().stores.sessions,
    }));
    runScheduleStoreContract(async () => ({
      ...(await fixture((stores) => stores.schedules)()),
      sessions: test.storage().stores.sessions,
    }));
    runTokenStoreContract(fixture((stores) => stores.tokens));
    runToolCallStoreContract(async () => ({
      ...(await fixture((stores) => stores.toolCalls)()),
      sessions: test.storage().stores.sessions,
    }));
    runSessionReadStoreContract(fixture((stores) => stores));
    runLeaseStoreContract(fixture((stores) => stores.leases));
    runPeerStoreContract(fixture((stores) => stores.peers));
    runCardStoreContract(fixture((stores) => stores.cards));
    runUnlockStoreContract(fixture((stores) => stores.unlocks));
    runLoopCounterStoreContract(fixture((stores) => stores.loopCounters));
    runAtomicChangesContract(fixture((stores) => stores));
    runRetentionStoreContract(fixture((stores) => stores));

    // The event layer's stores, with transactions that roll back (DESIGN §9: a failed change
    // leaves no outbox row, no seq taken, no delivery).
    const inTransaction =
      <S>(pick: (stores: Stores) => S) =>
      <T>(work: (store: S) => Promise<T>) =>
        test.storage().stores.transaction((tx) => work(pick(tx)));
    runEventStoreContract(async () => ({
      ...(await fixture((stores) => stores.events)()),
      transaction: inTransaction((stores) => stores.events),
    }));
    runSubscriptionStoreContract(async () => ({
      ...(await fixture((stores) => stores.subscriptions)()),
      transaction: inTransaction((stores) => stores.subscriptions),
    }));
    runDeliveryStoreContract(async () => ({
      ...(await fixture((stores) => stores.deliveries)()),
      transaction: inTransaction((stores) => stores.deliveries),
    }));
  });
}
