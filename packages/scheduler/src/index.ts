export {
  dueSlot,
  missedSlots,
  nextFireAt,
  type ScheduleTiming,
  scheduleAnchor,
  slotAfter,
} from "./schedule-grid";
