import type { Mode } from "@oar/schema";
import { antiLoopNeedsCard } from "./anti-loop";
import type { CallShape } from "./call-shape";
import { isWrite } from "./levels";
import type { CardKind } from "./ports";

/** What update_session would change (R-UPD-10), in the values the card shows. */
export interface UpdateChanges {
  readonly model?: string;
  readonly effort?: string;
  readonly mode?: Mode;
  readonly title?: string;
  /** `"none"` leaves the group (DESIGN GAP-08); `id: null` is a group the call would create (R-UPD-15). */
  readonly group?: "none" | { readonly id: string | null; readonly name: string | null };
  readonly cwd?: string;
  readonly auto_compact_window?: "auto" | number;
  readonly thinking_enabled?: boolean;
  readonly thinking_display?: string;
}

/** A subscription's options as its card names them (R-FEW-24). */
export interface SubscriptionCardOptions {
  /** How many sessions it watches, or `"all"`. */
  readonly sessions?: number | "all";
  readonly digestMinutes?: number;
  readonly quietHours?: { readonly from: string; readonly to: string; readonly tz: string };
  /** How many sessions `exclude` leaves out. */
  readonly excludeCount?: number;
}

/** The action-specific facts a card shows (R-UI-08). Each is read only for its action. */
export interface CardDetails {
  /** send with `provider` switching a Claude session's billing (R-BILL-03). */
  readonly billingSwitch?: "api_key" | "subscription";
  /** create_session with `group`: the group the lookup found, before any card (R-CGRP-05). */
  readonly group?: { readonly id: string; readonly name: string | null };
  /** update_session: what would change. Empty: it changes nothing and asks nobody (R-UPD-06). */
  readonly changes?: UpdateChanges;
  /** subscribe: what it watches and its options (R-FEW-24). */
  readonly subscription?: SubscriptionCardOptions;
  /** transfer_subscriptions: the conversation whose subscriptions would move here (R-XFER-01). */
  readonly transferFrom?: string;
}

/** Cards the owner already allowed that cover later calls (GAP-04 (a), (b), (d)). */
export interface Approvals {
  /** An allowed `first_create_session` card of this conversation. */
  readonly createSession: boolean;
  /** An allowed `first_subscribe` card of this conversation. */
  readonly subscribe: boolean;
  /** An allowed `update_other_session` card of this conversation for the target relay. */
  readonly updateOtherSessions: boolean;
}

export const NO_APPROVALS: Approvals = { createSession: false, subscribe: false, updateOtherSessions: false };

export interface CardsQuery extends CallShape {
  /** The calling conversation's mode (R-UI-01 (c)). */
  readonly mode: Mode;
  /** The target relay's name, for the card's text. */
  readonly relay: string;
  /** The session the call acts on, when it names one. */
  readonly targetSession?: { readonly id: string; readonly title?: string } | null;
  /** update_session: whether this conversation started the target (R-UPD-09). Absent counts as not. */
  readonly targetStartedByCaller?: boolean;
  readonly approvals: Approvals;
  /** Prompts to other agents since the owner last wrote, this call not included (GAP-04 (f)). */
  readonly promptsSinceOwnerWrote: number;
  readonly details?: CardDetails;
}

/**
 * What an Allow covers: this call only; later calls of the same kind in the conversation (a),
 * (b); or later such calls in the conversation on the same relay (d, R-UPD-10).
 */
export type CardCoverage = "call" | "conversation" | "conversation_and_relay";

/** A card the call must raise: `kind`, `action`, target and `detail` map onto the CardStore's `NewCard`. */
export interface CardRequest {
  readonly kind: CardKind;
  readonly action: CallShape["action"];
  readonly targetRelay: string;
  readonly targetSession: string | null;
  /** The question the card puts to the owner, one sentence or two. */
  readonly text: string;
  /** The action-specific lines (R-UI-08), the same on every card of the call. */
  readonly detail: readonly string[];
  readonly covers: CardCoverage;
}

function groupLabel(group: { readonly id: string | null; readonly name: string | null }): string {
  if (group.id === null) {
    return `${group.name ?? "?"} (new)`;
  }
  return group.name === null ? group.id : `${group.name} (${group.id})`;
}

/** R-UPD-10: `Model: … · Effort: … · Group: …`, the settings in update_session's order. */
export function updateChangesLine(changes: UpdateChanges): string | null {
  const parts: string[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) {
      parts.push(`${label}: ${value}`);
    }
  };
  add("Model", changes.model);
  add("Effort", changes.effort);
  add("Mode", changes.mode);
  add("Title", changes.title);
  add(
    "Group",
    changes.group === undefined ? undefined : changes.group === "none" ? "none" : groupLabel(changes.group),
  );
  add("Folder", changes.cwd);
  add("Window", changes.auto_compact_window === undefined ? undefined : String(changes.auto_compact_window));
  add(
    "Thinking",
    changes.thinking_enabled === undefined ? undefined : changes.thinking_enabled ? "on" : "off",
  );
  add("Thinking display", changes.thinking_display);
  return parts.length === 0 ? null : parts.join(" · ");
}

/** R-FEW-24: `digest every 30 min, quiet 23:00–06:00 Europe/Berlin, except 1 it leaves out`. */
export function subscriptionOptionsLine(options: SubscriptionCardOptions): string | null {
  const parts: string[] = [];
  if (options.digestMinutes !== undefined) {
    parts.push(`digest every ${options.digestMinutes} min`);
  }
  if (options.quietHours !== undefined) {
    const { from, to, tz } = options.quietHours;
    parts.push(`quiet ${from}–${to} ${tz}`);
  }
  if (options.excludeCount !== undefined && options.excludeCount > 0) {
    parts.push(`except ${options.excludeCount} it leaves out`);
  }
  return parts.length === 0 ? null : parts.join(", ");
}

/** R-BILL-03. */
export function billingSwitchLine(to: "api_key" | "subscription"): string {
  return to === "api_key" ? "Switches billing to API key" : "Switches billing to subscription";
}

/** R-CGRP-05: `Group: Release 2.4 (grp_…)`. */
export function groupLine(group: { readonly id: string; readonly name: string | null }): string {
  return `Group: ${groupLabel(group)}`;
}

/** The action-specific lines of the call's cards (R-UI-08). */
export function cardDetailLines(query: CardsQuery): string[] {
  const details = query.details ?? {};
  const lines: (string | null)[] = [];
  switch (query.action) {
    case "send":
      lines.push(details.billingSwitch === undefined ? null : billingSwitchLine(details.billingSwitch));
      break;
    case "create_session":
      lines.push(details.group === undefined ? null : groupLine(details.group));
      break;
    case "update_session":
      lines.push(details.changes === undefined ? null : updateChangesLine(details.changes));
      break;
    case "subscribe":
      lines.push(details.subscription === undefined ? null : subscriptionOptionsLine(details.subscription));
      break;
    default:
      break;
  }
  return lines.filter((line): line is string => line !== null);
}

function sessionPhrase(session: CardsQuery["targetSession"]): string {
  if (!session) {
    return "";
  }
  return session.title === undefined
    ? ` session ${session.id}`
    : ` session ${session.id} ("${session.title}")`;
}

function watchedPhrase(options: SubscriptionCardOptions | undefined): string {
  const sessions = options?.sessions;
  if (sessions === "all") {
    return "all sessions";
  }
  if (sessions === undefined) {
    return "sessions";
  }
  return sessions === 1 ? "1 session" : `${sessions} sessions`;
}

/** The once-per-conversation or always-asked card of the call, (a), (b), (d) or (e), if any. */
function kindCard(
  query: CardsQuery,
): Omit<CardRequest, "action" | "targetRelay" | "targetSession" | "detail"> | null {
  const relay = `relay "${query.relay}"`;
  switch (query.action) {
    case "create_session":
      return query.approvals.createSession
        ? null
        : {
            kind: "first_create_session",
            text: `The agent of this conversation wants to start its first session: create_session on ${relay}. Allow also covers the sessions it starts later in this conversation.`,
            covers: "conversation",
          };
    case "subscribe":
      return query.approvals.subscribe
        ? null
        : {
            kind: "first_subscribe",
            text: `The agent of this conversation wants to watch sessions for the first time: subscribe to ${watchedPhrase(query.details?.subscription)} on ${relay}. Allow also covers its later subscriptions in this conversation.`,
            covers: "conversation",
          };
    case "update_session":
      return query.targetStartedByCaller === true || query.approvals.updateOtherSessions
        ? null
        : {
            kind: "update_other_session",
            text: `The agent of this conversation wants to change${sessionPhrase(query.targetSession)} on ${relay}, which this conversation did not start. Allow also covers its later changes to such sessions on ${relay}.`,
            covers: "conversation_and_relay",
          };
    case "transfer_subscriptions": {
      const from = query.details?.transferFrom;
      return {
        kind: "transfer_subscriptions",
        text: `The agent of this conversation wants to take over all the subscriptions of ${from === undefined ? "another conversation" : `conversation ${from}`} on ${relay}.`,
        covers: "call",
      };
    }
    default:
      return null;
  }
}

/**
 * The approval cards a call must raise before it runs (R-UI-01, DESIGN GAP-04), in the order to
 * show them; empty when it may run at once. Every card must be allowed; the first Deny refuses
 * the call with REMOTE_RELAY_PERMISSION.
 *
 * - (a) the first create_session of the conversation, on any relay; (b) its first subscribe;
 *   (d) update_session of a session the conversation did not start, once per conversation and
 *   relay (R-UPD-10); (e) every transfer_subscriptions (R-XFER-02).
 * - (c) every write action while the conversation is in `ask` or `plan` mode, in addition to the
 *   card above, as R-UPD-12 says for update_session (Allow on (a) covers later calls, Allow on
 *   (c) only this one, so neither stands for the other).
 * - (f) the anti-loop guard: the 31st prompt to other agents since the owner last wrote.
 * - update_session that changes nothing asks nobody (R-UPD-06).
 *
 * Refusals (locks, levels, hops, session rules) come first: see `evaluateCall`.
 */
export function cardsNeeded(query: CardsQuery): CardRequest[] {
  if (query.action === "update_session" && query.details?.changes !== undefined) {
    if (updateChangesLine(query.details.changes) === null) {
      return [];
    }
  }
  const base = {
    action: query.action,
    targetRelay: query.relay,
    targetSession: query.targetSession?.id ?? null,
    detail: cardDetailLines(query),
  };
  const cards: CardRequest[] = [];
  const first = kindCard(query);
  if (first !== null) {
    cards.push({ ...base, ...first });
  }
  const what = `${query.action} on relay "${query.relay}"${sessionPhrase(query.targetSession)}`;
  if (query.mode !== "agent" && isWrite(query)) {
    cards.push({
      ...base,
      kind: "write_in_mode",
      text: `This conversation is in ${query.mode} mode, so every write action needs your approval: ${what}.`,
      covers: "call",
    });
  }
  if (antiLoopNeedsCard(query.promptsSinceOwnerWrote, query)) {
    cards.push({
      ...base,
      kind: "anti_loop",
      text: `The agents of this conversation have sent ${query.promptsSinceOwnerWrote} prompts to other agents since you last wrote. Allow this one too (${what})? Allow starts the count again.`,
      covers: "call",
    });
  }
  return cards;
}
