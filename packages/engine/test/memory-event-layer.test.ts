import { runDeliveryStoreContract, runSubscriptionStoreContract } from "@oar/scheduler/testing";
import { describe } from "vitest";
import { createMemoryEngineStores, createMemoryEventStore, runEventStoreContract } from "../src/testing";

const cleanup = async () => {};

runEventStoreContract(async () => ({ store: createMemoryEventStore(), cleanup }));

// The same suites on the engine's memory stores, whose transactions restore these stores on failure.
describe("in the memory engine stores", () => {
  runEventStoreContract(async () => {
    const stores = createMemoryEngineStores();
    return {
      store: stores.events,
      transaction: (work) => stores.transaction((tx) => work(tx.events)),
      cleanup,
    };
  });
  runSubscriptionStoreContract(async () => {
    const stores = createMemoryEngineStores();
    return {
      store: stores.subscriptions,
      transaction: (work) => stores.transaction((tx) => work(tx.subscriptions)),
      cleanup,
    };
  });
  runDeliveryStoreContract(async () => {
    const stores = createMemoryEngineStores();
    return {
      store: stores.deliveries,
      transaction: (work) => stores.transaction((tx) => work(tx.deliveries)),
      cleanup,
    };
  });
});
