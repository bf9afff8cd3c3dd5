import { type Action, actionMeta, type PermissionLevel, PermissionLevelSchema } from "@oar/schema";
import type { CallShape } from "./call-shape";

/** The Agents may levels of a pairing, lowest first (DESIGN GAP-03): none < read < prompt < full. */
export const LEVELS: readonly PermissionLevel[] = PermissionLevelSchema.options;

/** How the settings page names each level (R-QCHK-02 names "Read and prompt"). */
export const LEVEL_LABELS: Readonly<Record<PermissionLevel, string>> = {
  none: "None",
  read: "Read",
  prompt: "Read and prompt",
  full: "Full",
};

/** What an action needs on a paired relay: a level, or nothing there at all (schedules, R-SCH-03). */
export type RequiredLevel = PermissionLevel | "this_relay_only";

/** Whether a column applies to a call: always, never, or by whether it concerns another session. */
type Applies = "always" | "never" | "with_session" | "without_session";

interface PermissionRow {
  /**
   * The call modifies or watches something on the target relay (R-PERM-07: "everything agents
   * of another relay could modify or watch there"). Such calls are refused by a target that does
   * not accept other relays' agents, and are limited by the hop rule; everything else is reading,
   * waiting, listing or undoing what the caller itself did (R-PERM-08, R-HOP-02).
   */
  readonly actsOnTarget: Applies;
  /**
   * R-QCHK-01: a question about the caller's own conversation, `list_questions` and `withdraw`
   * need neither a setting (a pairing's level, this relay's agent-sessions switch) nor a mention.
   */
  readonly free: Applies;
}

/**
 * The permission engine's table, one row per action. The level of each action is not repeated
 * here: it is `@oar/schema`'s `actionMeta` (`minLevel`, `thisRelayOnly`), which follows DESIGN
 * GAP-03; this table holds only what the engine adds to it.
 *
 * - `unsubscribe` and `withdraw` do not act on the target: they undo what the caller did there,
 *   and a target that stopped accepting agents must not trap a subscription or a question.
 * - Schedules live on this relay (R-SCH-03): a paired relay refuses them before any other check.
 */
export const PERMISSION_TABLE: Readonly<Record<Action, PermissionRow>> = {
  list_relays: { actsOnTarget: "never", free: "never" },
  relay_info: { actsOnTarget: "never", free: "never" },
  usage: { actsOnTarget: "never", free: "never" },
  list_sessions: { actsOnTarget: "never", free: "never" },
  read_session: { actsOnTarget: "never", free: "never" },
  read_task_output: { actsOnTarget: "never", free: "never" },
  send: { actsOnTarget: "always", free: "never" },
  create_session: { actsOnTarget: "always", free: "never" },
  update_session: { actsOnTarget: "always", free: "never" },
  wait: { actsOnTarget: "never", free: "never" },
  answer_question: { actsOnTarget: "always", free: "never" },
  stop: { actsOnTarget: "always", free: "never" },
  archive: { actsOnTarget: "always", free: "never" },
  subscribe: { actsOnTarget: "always", free: "never" },
  unsubscribe: { actsOnTarget: "never", free: "never" },
  list_subscriptions: { actsOnTarget: "never", free: "never" },
  transfer_subscriptions: { actsOnTarget: "always", free: "never" },
  schedule: { actsOnTarget: "never", free: "never" },
  list_schedules: { actsOnTarget: "never", free: "never" },
  unschedule: { actsOnTarget: "never", free: "never" },
  ask: { actsOnTarget: "with_session", free: "without_session" },
  list_questions: { actsOnTarget: "never", free: "always" },
  withdraw: { actsOnTarget: "never", free: "always" },
};

function applies(value: Applies, call: CallShape): boolean {
  const other = call.forOtherSession === true;
  return value === "always" || (value === "with_session" && other) || (value === "without_session" && !other);
}

/** R-QCHK-01: `ask` about the own conversation, `list_questions`, `withdraw`: no setting, no mention. */
export function needsNoSettingNorMention(call: CallShape): boolean {
  return applies(PERMISSION_TABLE[call.action].free, call);
}

/** R-PERM-07, R-HOP-02: the call modifies or watches something on the target relay. */
export function actsOnTarget(call: CallShape): boolean {
  return applies(PERMISSION_TABLE[call.action].actsOnTarget, call);
}

/** DESIGN GAP-04's write actions (`ask` only with another session, R-QCHK-03); from `actionMeta`. */
export function isWrite(call: CallShape): boolean {
  const { write } = actionMeta[call.action];
  return write === "always" || (write === "with_session" && call.forOtherSession === true);
}

/**
 * The lowest Agents may level of a pairing that allows the call (R-PERM-05, DESIGN GAP-03):
 * `actionMeta.minLevel`, except that what R-QCHK-01 frees needs none, and schedules are
 * `this_relay_only` (R-SCH-03; this relay always counts as Full, R-PERM-04).
 */
export function requiredLevel(
  action: Action,
  options: { readonly forOtherSession?: boolean } = {},
): RequiredLevel {
  const call: CallShape = { action, ...options };
  if (needsNoSettingNorMention(call)) {
    return "none";
  }
  const meta = actionMeta[action];
  return meta.thisRelayOnly ? "this_relay_only" : meta.minLevel;
}

/** Whether a pairing at `granted` allows what needs `needed`. */
export function levelAllows(granted: PermissionLevel, needed: PermissionLevel): boolean {
  return LEVELS.indexOf(granted) >= LEVELS.indexOf(needed);
}
