export { approvalCards, loopCounters, relayUnlocks } from "./approvals";
export { tokens } from "./auth";
export { sessionGroups } from "./groups";
export { leases } from "./leases";
export { peerEventCursors, peers } from "./peers";
export { questions } from "./questions";
export { scheduleFirings, schedules } from "./schedules";
export { messages, sessions, turns } from "./sessions";
export { settings } from "./settings";
export {
  deliveries,
  events,
  groupedMessages,
  heldDigests,
  type QuietHours,
  subscriptions,
} from "./subscriptions";
export { tasks } from "./tasks";
