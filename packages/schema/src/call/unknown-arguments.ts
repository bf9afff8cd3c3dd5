import type { Action } from "../actions/action-names";
import { actionArgumentNames } from "../actions/registry";
import { LIMITS } from "../limits";

/** Actions that refuse an argument they do not take instead of listing it (R-CALL-07). */
export const STRICT_ACTIONS = ["create_session", "update_session"] as const satisfies readonly Action[];
export type StrictAction = (typeof STRICT_ACTIONS)[number];

export function isStrictAction(action: Action): action is StrictAction {
  return (STRICT_ACTIONS as readonly Action[]).includes(action);
}

const NOTHING_DONE: Record<StrictAction, string> = {
  create_session: "Nothing was created.",
  update_session: "Nothing was changed.",
};

// R-UPD-03's sentence, for any spelling an agent may try (mayCreateSessions, may_create_sessions …).
const OWNER_ONLY = "Whether a session may start sessions is the owner's setting alone.";
const NAME_MAX = 100;
const NAMES_IN_MESSAGE = 20;

function isMayCreateSessions(name: string): boolean {
  return name.toLowerCase().replace(/[\s_-]/g, "") === "maycreatesessions";
}

/** An argument name as it goes back to the agent: very long names are cut, never dropped. */
export function shownName(name: string): string {
  return name.length > NAME_MAX ? `${name.slice(0, NAME_MAX)}…` : name;
}

/** The exact R-CALL-07 refusal, e.g. `create_session does not take: session. Its arguments: … Nothing was created.` */
export function unknownArgumentsMessage(action: StrictAction, unknown: readonly string[]): string {
  const named = unknown.slice(0, NAMES_IN_MESSAGE).map(shownName);
  const more = unknown.length > NAMES_IN_MESSAGE ? ` and ${unknown.length - NAMES_IN_MESSAGE} more` : "";
  const message = `${action} does not take: ${named.join(", ")}${more}. Its arguments: ${actionArgumentNames(action).join(", ")}. ${NOTHING_DONE[action]}`;
  return unknown.some(isMayCreateSessions) ? `${message} ${OWNER_ONLY}` : message;
}

/** R-CALL-08: the names listed in `ignored`, at most 20. */
export function ignoredNames(unknown: readonly string[]): string[] {
  return unknown.slice(0, LIMITS.ignoredMax).map(shownName);
}
