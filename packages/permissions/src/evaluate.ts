import type { Action, Mode } from "@oar/schema";
import type { CallShape } from "./call-shape";
import { type Approvals, type CardDetails, type CardRequest, cardsNeeded, NO_APPROVALS } from "./cards";
import { hopRule } from "./hops";
import { relayAccess, type TargetRelay } from "./locks";
import { activeSessionsRule, answerQuestionRule, notOnItselfRule, oneLevelRule } from "./session-rules";
import { ALLOW, type Allow, type Refuse, refuse, type Verdict } from "./verdict";

/** The calling conversation. */
export interface CallerFacts {
  /** Its session id. */
  readonly session: string;
  readonly mode: Mode;
  /**
   * A turn is in progress in which a card can be shown. A relay-run session between turns (a
   * background task after its turn ended) has none; an `external` session always counts as in
   * one (DESIGN GAP-04).
   */
  readonly inTurn: boolean;
  /** An agent started this conversation (R-LOCAL-03). */
  readonly startedByAgent: boolean;
  /** The owner's "Agents in this conversation may start sessions" (R-LOCAL-03). */
  readonly mayCreateSessions: boolean;
  /** Hops of the prompt that started the current turn; 0 when the owner or a local agent did (§6). */
  readonly turnHops: number;
}

/** The session a call acts on, as the relay that holds it knows it. */
export interface TargetSessionFacts {
  readonly id: string;
  readonly title?: string;
  /** This conversation started it (R-UPD-09, R-LOCAL-01). */
  readonly startedByCaller: boolean;
  /** A turn is queued or running there (R-LOCAL-01). */
  readonly busy: boolean;
}

export interface EvaluateQuery {
  readonly action: Action;
  /**
   * The call's `session` argument: the session acted on (send, wait, stop, archive,
   * update_session, read_*), asked about (ask) or scheduled into (schedule). For ask and schedule,
   * a session other than the caller's makes the call one "for another session".
   */
  readonly session?: string;
  /** answer_question's `question_id`. */
  readonly questionId?: string;
  readonly caller: CallerFacts;
  readonly relay: TargetRelay;
  /** The target's "Accept prompts from other relays' agents", when known (default true: it checks itself). */
  readonly acceptsPromptsFromOtherRelays?: boolean;
  /**
   * The session acted on; for answer_question, the session whose question it is. Needed for
   * R-LOCAL-06 on answer_question, R-UPD-09 and R-LOCAL-01 on send.
   */
  readonly target?: TargetSessionFacts;
  /** Sessions on this relay that the caller started and that have a turn queued or running (R-LOCAL-01). Default 0. */
  readonly activeStartedSessions?: number;
  /** Cards already allowed that cover later calls. Default: none. */
  readonly approvals?: Approvals;
  /** Prompts to other agents since the owner last wrote, this call not included. Default 0. */
  readonly promptsSinceOwnerWrote?: number;
  /** What the cards show (R-UI-08). */
  readonly details?: CardDetails;
}

/** Ask the owner first: raise these cards, in order; the call runs when all are allowed. */
export interface Ask {
  readonly kind: "ask";
  readonly cards: readonly CardRequest[];
}

export type Decision = Allow | Refuse | Ask;

function forOtherSession(query: EvaluateQuery): boolean {
  return query.session !== undefined && query.session !== query.caller.session;
}

/** The session the cards name: the target as known, else the `session` argument. */
function cardTarget(query: EvaluateQuery): { readonly id: string; readonly title?: string } | null {
  const { target } = query;
  if (target !== undefined) {
    return target.title === undefined ? { id: target.id } : { id: target.id, title: target.title };
  }
  return query.session === undefined ? null : { id: query.session };
}

/** The refusals, in the order they are checked; the first that refuses decides. */
function refusals(query: EvaluateQuery, call: CallShape): Verdict {
  const { action, caller, relay } = query;
  const steps: (() => Verdict)[] = [
    () =>
      relayAccess({
        ...call,
        relay,
        acceptsPromptsFromOtherRelays: query.acceptsPromptsFromOtherRelays ?? true,
      }),
    () =>
      action === "answer_question" && query.questionId !== undefined
        ? answerQuestionRule({ questionId: query.questionId })
        : ALLOW,
    () =>
      relay.kind === "self"
        ? notOnItselfRule({
            action,
            targetSession: action === "answer_question" ? query.target?.id : query.session,
            callerSession: caller.session,
          })
        : ALLOW,
    () => hopRule({ ...call, turnHops: caller.turnHops, relay }),
    () => (action === "create_session" ? oneLevelRule(caller) : ALLOW),
    () => {
      if (relay.kind !== "self" || (action !== "send" && action !== "create_session")) {
        return ALLOW;
      }
      const target = query.target;
      return activeSessionsRule({
        active: query.activeStartedSessions ?? 0,
        woken:
          action === "create_session"
            ? { kind: "new" }
            : {
                kind: "existing",
                startedByCaller: target?.startedByCaller ?? false,
                busy: target?.busy ?? false,
              },
      });
    },
  ];
  for (const step of steps) {
    const verdict = step();
    if (verdict.kind === "refuse") {
      return verdict;
    }
  }
  return ALLOW;
}

/**
 * One decision for a relay_tool call and the state given: allowed, refused (code and message),
 * or ask the owner (the cards to raise). Pure: the caller reads the state, and after the cards
 * are answered evaluates again with the new approvals (and the state of that moment).
 *
 * Order: relay access (§3, §4.1: schedules on a paired relay, agent-sessions switch, lock, level,
 * Accept prompts), answer_question's own rules (R-ANS-04/05), not on itself (R-LOCAL-06), the
 * hop rule (§6), one level (R-LOCAL-03), 4 at work (R-LOCAL-01/02); then the cards (GAP-04):
 * none → allow; some, and no turn in progress to show them in → REMOTE_RELAY_NO_ACTIVE_TURN
 * (R-UPD-11); else ask.
 */
export function evaluateCall(query: EvaluateQuery): Decision {
  if (query.action === "list_relays") {
    return ALLOW;
  }
  const call: CallShape = { action: query.action, forOtherSession: forOtherSession(query) };
  const refused = refusals(query, call);
  if (refused.kind === "refuse") {
    return refused;
  }
  const cards = cardsNeeded({
    ...call,
    mode: query.caller.mode,
    relay: query.relay.name,
    targetSession: cardTarget(query),
    targetStartedByCaller: query.target?.startedByCaller ?? false,
    approvals: query.approvals ?? NO_APPROVALS,
    promptsSinceOwnerWrote: query.promptsSinceOwnerWrote ?? 0,
    ...(query.details === undefined ? {} : { details: query.details }),
  });
  if (cards.length === 0) {
    return ALLOW;
  }
  if (!query.caller.inTurn) {
    return refuse(
      "REMOTE_RELAY_NO_ACTIVE_TURN",
      `${query.action} needs the user's approval on a card, but this conversation has no turn in progress in which to ask. Nothing was done.`,
    );
  }
  return { kind: "ask", cards };
}
