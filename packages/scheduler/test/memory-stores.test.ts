import {
  createMemoryDeliveryStore,
  createMemorySubscriptionStore,
  runDeliveryStoreContract,
  runSubscriptionStoreContract,
} from "../src/testing";

const cleanup = async () => {};

runSubscriptionStoreContract(async () => ({ store: createMemorySubscriptionStore(), cleanup }));
runDeliveryStoreContract(async () => ({ store: createMemoryDeliveryStore(), cleanup }));
