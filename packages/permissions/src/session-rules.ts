import { ID_PREFIXES, idPrefixOf } from "@oar/core";
import { type Action, LIMITS } from "@oar/schema";
import { ALLOW, refuse, type Verdict } from "./verdict";

// The §5 rules: the engine applies these functions (packages/engine/src/actions/session-rules.ts,
// sessions.ts, answer-question.ts), so each refusal has one wording.

/**
 * R-LOCAL-03: a conversation an agent started creates no sessions unless the owner switched on
 * "Agents in this conversation may start sessions" for it (`mayCreateSessions`). Applied to
 * create_session on any relay: the rule limits the caller, wherever it would start one.
 */
export function oneLevelRule(caller: {
  readonly startedByAgent: boolean;
  readonly mayCreateSessions: boolean;
}): Verdict {
  if (!caller.startedByAgent || caller.mayCreateSessions) {
    return ALLOW;
  }
  return refuse(
    "REMOTE_RELAY_LIMIT",
    `This conversation was itself started by an agent, so it cannot start sessions (one level only) unless the owner enables "Agents in this conversation may start sessions" for it. Nothing was created.`,
  );
}

/** The session a prompt would wake: a new one (create_session), or one that exists (send). */
export type WokenSession =
  | { readonly kind: "new" }
  | { readonly kind: "existing"; readonly startedByCaller: boolean; readonly busy: boolean };

/**
 * R-LOCAL-01/02: among the sessions on this relay that the conversation started, at most
 * LIMITS.maxActiveSessions (4) may have a turn queued or running. `active` is that count now.
 * A new session always adds one; an existing one adds one only when the conversation started it
 * and it is not already at work. Four pass, the fifth is REMOTE_RELAY_LIMIT.
 */
export function activeSessionsRule(query: {
  readonly active: number;
  readonly woken: WokenSession;
}): Verdict {
  const { woken } = query;
  if (woken.kind === "existing" && (!woken.startedByCaller || woken.busy)) {
    return ALLOW;
  }
  if (query.active < LIMITS.maxActiveSessions) {
    return ALLOW;
  }
  const nothing = woken.kind === "new" ? "Nothing was created." : "Nothing was sent.";
  return refuse(
    "REMOTE_RELAY_LIMIT",
    `This conversation already has ${query.active} sessions it started at work (a turn queued or running); at most ${LIMITS.maxActiveSessions} may be, so wait until one of them has finished. ${nothing}`,
  );
}

/**
 * R-LOCAL-06: the actions an agent never uses on the conversation it runs in. answer_question
 * counts when the question waits in that conversation (its own question).
 */
export const NOT_ON_ITSELF: ReadonlySet<Action> = new Set<Action>([
  "send",
  "wait",
  "stop",
  "archive",
  "update_session",
  "answer_question",
]);

/**
 * R-LOCAL-06 → REMOTE_RELAY_SELF (the own question of answer_question: REMOTE_RELAY_FORBIDDEN). `targetSession` is the session the call acts on (for
 * answer_question, the session whose question it is); only meaningful on this relay, where the
 * caller's conversation lives.
 */
export function notOnItselfRule(query: {
  readonly action: Action;
  readonly targetSession: string | null | undefined;
  readonly callerSession: string;
}): Verdict {
  if (!NOT_ON_ITSELF.has(query.action) || query.targetSession !== query.callerSession) {
    return ALLOW;
  }
  if (query.action === "answer_question") {
    // The issue and the code's documented meaning make the agent's own question FORBIDDEN (for
    // the user only), like approval cards, rather than SELF.
    return refuse(
      "REMOTE_RELAY_FORBIDDEN",
      `answer_question cannot answer a question of this conversation itself (session ${query.callerSession}): an agent never answers its own question; it is for the user.`,
    );
  }
  return refuse(
    "REMOTE_RELAY_SELF",
    `${query.action} cannot act on this conversation itself (session ${query.callerSession}): an agent never uses it on the conversation it runs in.`,
  );
}

/**
 * R-ANS-04/05: answer_question answers only a blocking question (`q_…`). A non-blocking
 * question (`ask_…`) or an approval card (`card_…`) is for the user: REMOTE_RELAY_FORBIDDEN,
 * decided from the id alone, before calling anyone. (The caller's own question is
 * REMOTE_RELAY_FORBIDDEN too, from `notOnItselfRule`.)
 */
export function answerQuestionRule(query: { readonly questionId: string }): Verdict {
  const prefix = idPrefixOf(query.questionId.trim().toLowerCase());
  if (prefix === ID_PREFIXES.ask) {
    return refuse(
      "REMOTE_RELAY_FORBIDDEN",
      `answer_question cannot answer ${query.questionId}: it is a non-blocking question, which only the user answers, in the session or in an Inbox. answer_question answers the cards a session waits on (pendingQuestions of kind ask_user in read_session). Nothing was answered.`,
    );
  }
  if (prefix === ID_PREFIXES.card) {
    return refuse(
      "REMOTE_RELAY_FORBIDDEN",
      `answer_question cannot answer ${query.questionId}: it is a relay's approval card, which is for the user, never for an agent. Nothing was answered.`,
    );
  }
  return ALLOW;
}
