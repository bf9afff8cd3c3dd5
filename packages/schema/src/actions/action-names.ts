import { z } from "zod";

/** The 23 actions of relay_tool, in the order the spec names them (R-OVW-05). */
export const ACTIONS = [
  "list_relays",
  "relay_info",
  "usage",
  "list_sessions",
  "read_session",
  "read_task_output",
  "send",
  "create_session",
  "update_session",
  "wait",
  "answer_question",
  "stop",
  "archive",
  "subscribe",
  "unsubscribe",
  "list_subscriptions",
  "transfer_subscriptions",
  "schedule",
  "list_schedules",
  "unschedule",
  "ask",
  "list_questions",
  "withdraw",
] as const;

export const ActionSchema = z.enum(ACTIONS);
export type Action = z.infer<typeof ActionSchema>;
