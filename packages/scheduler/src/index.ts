export type {
  DeliveryReason,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryStore,
  HeldSummary,
  NewDelivery,
  WakeupRecord,
} from "./ports/delivery-store";
export type { NewSubscription, SubscriptionRecord, SubscriptionStore } from "./ports/subscription-store";
export {
  dueSlot,
  missedSlots,
  nextFireAt,
  type ScheduleTiming,
  scheduleAnchor,
  slotAfter,
} from "./schedule-grid";
