export { withDelivery } from "./delivery-rows";
export {
  EVENT_MESSAGE_HEADER,
  eventLine,
  eventMessage,
  type MessageSection,
} from "./event-message";
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
export { describeQuietHours, isQuiet, quietUntil } from "./quiet-hours";
export {
  deliveryTiming,
  firstRelease,
  GROUPING_WINDOW_MS,
  nextDigestAt,
  type Release,
  releaseOf,
} from "./release";
export {
  dueSlot,
  missedSlots,
  nextFireAt,
  type ScheduleTiming,
  type SlotToFire,
  scheduleAnchor,
  slotAfter,
  slotToFire,
} from "./schedule-grid";
export { type ScheduleHeading, scheduleHeader, scheduleMessage } from "./schedule-message";
export { eventsOf, isUrgent, type RoutedEvent, receives, watches } from "./subscription-match";
export {
  planTick,
  type RunningWork,
  STALL_RECHECK_MS,
  type StalledWork,
  stallCheckAt,
  type TickPlan,
} from "./ticks";
export { CAP_DIGEST_MINUTES, capHoldUntil, WAKEUPS_PER_HOUR } from "./wakeup-cap";
