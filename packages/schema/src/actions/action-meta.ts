import type { PermissionLevel } from "../vocabulary";
import type { Action } from "./action-names";
import type { RelayToolCall } from "./registry";

/** What the permission engine needs to know about an action before running it. */
export interface ActionMeta {
  /**
   * DESIGN GAP-04: write actions get a card in `ask`/`plan` mode. `ask` writes only when it
   * concerns another session (R-QCHK-03).
   */
  write: "always" | "never" | "with_session";
  /** DESIGN GAP-03: the lowest Agents may level of a pairing that allows it. */
  minLevel: PermissionLevel;
  /** R-RLY-04: `relay` may be omitted and means "this". */
  relayDefaultsToThis: boolean;
  /** R-LREL-03: list_relays names no relay at all. */
  takesRelay: boolean;
  /** R-SCH-03: schedules live on this relay; a paired relay gets REMOTE_RELAY_UNSUPPORTED. */
  thisRelayOnly: boolean;
}

const read = {
  write: "never",
  minLevel: "read",
  relayDefaultsToThis: false,
  takesRelay: true,
  thisRelayOnly: false,
} as const;
const prompt = { ...read, write: "always", minLevel: "prompt" } as const;
const full = { ...read, write: "always", minLevel: "full" } as const;
const defaultsToThis = { relayDefaultsToThis: true } as const;
// Schedules never reach a pairing level check: this relay always counts as Full (R-PERM-04).
const scheduleAction = { ...full, ...defaultsToThis, thisRelayOnly: true } as const;

export const actionMeta: Record<Action, ActionMeta> = {
  list_relays: { ...read, minLevel: "none", takesRelay: false },
  relay_info: read,
  usage: read,
  list_sessions: read,
  read_session: read,
  read_task_output: read,
  send: prompt,
  create_session: full,
  update_session: full,
  wait: read,
  answer_question: prompt,
  stop: full,
  archive: full,
  subscribe: { ...read, ...defaultsToThis, write: "always" },
  unsubscribe: { ...read, ...defaultsToThis, write: "always" },
  list_subscriptions: { ...read, ...defaultsToThis },
  transfer_subscriptions: { ...full, ...defaultsToThis },
  schedule: scheduleAction,
  list_schedules: { ...scheduleAction, write: "never" },
  unschedule: scheduleAction,
  ask: { ...prompt, ...defaultsToThis, write: "with_session" },
  list_questions: { ...read, ...defaultsToThis },
  withdraw: { ...prompt, ...defaultsToThis },
};

/** Whether this call is a write action (DESIGN GAP-04), `ask` counting only with `session`. */
export function isWriteCall(call: RelayToolCall): boolean {
  const { write } = actionMeta[call.action];
  if (write === "with_session") {
    return call.action === "ask" && call.session !== undefined;
  }
  return write === "always";
}
