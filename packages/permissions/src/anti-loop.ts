import { LIMITS } from "@oar/schema";
import type { CallShape } from "./call-shape";

/**
 * The anti-loop guard's notion of "a prompt to another agent" (DESIGN GAP-04 (f)): `send`,
 * `create_session` (its first prompt) and a `schedule` for another session (R-SCH-17, at its
 * creation; each firing counts through `loopCounterAfter`). Not a non-blocking question for
 * another session (R-QCHK-03), not a schedule for the agent's own conversation (R-SCH-20).
 */
export function countsAsPromptToAgent(call: CallShape): boolean {
  switch (call.action) {
    case "send":
    case "create_session":
      return true;
    case "schedule":
      return call.forOtherSession === true;
    default:
      return false;
  }
}

/** What happens in a conversation, as the anti-loop counter sees it. */
export type LoopEvent =
  /** The owner wrote in the conversation: the count starts again (GAP-04 (f)). */
  | { readonly kind: "owner_message" }
  /**
   * The owner chose Allow on an anti-loop card (decided: that is the owner stepping in as much as
   * writing is, so the count starts again; R-SCH-19 releases held firings on it too).
   */
  | { readonly kind: "anti_loop_allowed" }
  /** `question_answered` is not a message from the owner and resets nothing (R-QANS-05). */
  | { readonly kind: "question_answered" }
  /** Relay events, another agent's prompt, a schedule's message: none is the owner writing. */
  | { readonly kind: "other_message" }
  /** A call of the conversation's agent that went through; counted when it is a prompt to another agent. */
  | { readonly kind: "call"; readonly call: CallShape }
  /** A schedule created by this conversation fired; counted when it is for another session (R-SCH-17, R-SCH-20). */
  | { readonly kind: "schedule_fired"; readonly forOtherSession: boolean };

/** The count of prompts to other agents since the owner last wrote, after `event`. */
export function loopCounterAfter(count: number, event: LoopEvent): number {
  switch (event.kind) {
    case "owner_message":
    case "anti_loop_allowed":
      return 0;
    case "question_answered":
    case "other_message":
      return count;
    case "call":
      return countsAsPromptToAgent(event.call) ? count + 1 : count;
    case "schedule_fired":
      return event.forOtherSession ? count + 1 : count;
  }
}

/**
 * GAP-04 (f): with `count` prompts to other agents already made since the owner last wrote, this
 * call needs an anti-loop card when it is one more and the count has reached
 * LIMITS.antiLoopPrompts: the 30th prompt passes, the 31st asks.
 */
export function antiLoopNeedsCard(count: number, call: CallShape): boolean {
  return countsAsPromptToAgent(call) && count >= LIMITS.antiLoopPrompts;
}

/**
 * R-SCH-18/19/20: a firing of a schedule for another session is held once the count is used up
 * (until the owner writes, or allows the agent's next anti-loop card); one for the conversation
 * itself always fires. After a firing, count it with `loopCounterAfter`.
 */
export function scheduleFiring(query: {
  readonly count: number;
  readonly forOtherSession: boolean;
}): "fire" | "hold" {
  return query.forOtherSession && query.count >= LIMITS.antiLoopPrompts ? "hold" : "fire";
}
