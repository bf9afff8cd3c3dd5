import type { Action } from "../../src/index";

// A smallest valid call per action; each bound is probed by changing one argument of it.
export const BASE: Record<Action, Record<string, unknown>> = {
  list_relays: {},
  relay_info: { relay: "this" },
  usage: { relay: "this" },
  list_sessions: { relay: "this" },
  read_session: { relay: "this", session: "s" },
  read_task_output: { relay: "this", session: "s", task_id: "t" },
  send: { relay: "this", session: "s", text: "x" },
  create_session: { relay: "this", text: "x" },
  update_session: { relay: "this", session: "s", effort: "low" },
  wait: { relay: "this", session: "s" },
  answer_question: { relay: "this", question_id: "q", answer: "a" },
  stop: { relay: "this", session: "s" },
  archive: { relay: "this", session: "s" },
  subscribe: { sessions: ["all"] },
  unsubscribe: { subscription_id: "sub_1" },
  list_subscriptions: {},
  transfer_subscriptions: { from: "c" },
  schedule: { title: "t", text: "x", every_minutes: 5 },
  list_schedules: {},
  unschedule: { schedule_id: "sch_1" },
  ask: { question: "q?" },
  list_questions: {},
  withdraw: { question_id: "q" },
};
