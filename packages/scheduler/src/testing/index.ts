export {
  type DeliveryStoreFixture,
  newDelivery,
  runDeliveryStoreContract,
} from "./delivery-store-contract";
export { createMemoryDeliveryStore, type MemoryDeliveryStore } from "./memory-delivery-store";
export { createMemorySubscriptionStore } from "./memory-subscription-store";
export {
  newSubscription,
  runSubscriptionStoreContract,
  type SubscriptionStoreFixture,
} from "./subscription-store-contract";
