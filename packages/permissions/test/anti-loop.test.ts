import { ACTIONS } from "@oar/schema";
import { describe, expect, it } from "vitest";
import {
  antiLoopNeedsCard,
  type CallShape,
  cardsNeeded,
  countsAsPromptToAgent,
  type LoopEvent,
  loopCounterAfter,
  NO_APPROVALS,
  scheduleFiring,
} from "../src";
import { forSeeds, type Random } from "./seeded-random";

describe("the anti-loop guard (DESIGN GAP-04 (f))", () => {
  it("counts send, create_session and a schedule for another session as prompts to other agents", () => {
    const counted = ACTIONS.filter((action) => countsAsPromptToAgent({ action, forOtherSession: true }));
    expect(counted).toEqual(["send", "create_session", "schedule"]);
  });

  it("R-QCHK-03: a non-blocking question for another session is not counted", () => {
    expect(countsAsPromptToAgent({ action: "ask", forOtherSession: true })).toBe(false);
  });

  it("R-SCH-20: a schedule for the agent's own conversation is neither counted nor held", () => {
    expect(countsAsPromptToAgent({ action: "schedule", forOtherSession: false })).toBe(false);
    expect(loopCounterAfter(40, { kind: "schedule_fired", forOtherSession: false })).toBe(40);
    expect(scheduleFiring({ count: 40, forOtherSession: false })).toBe("fire");
  });

  it("R-SCH-17: a schedule for another session counts at its creation and at each firing", () => {
    let count = loopCounterAfter(0, { kind: "call", call: { action: "schedule", forOtherSession: true } });
    count = loopCounterAfter(count, { kind: "schedule_fired", forOtherSession: true });
    count = loopCounterAfter(count, { kind: "schedule_fired", forOtherSession: true });
    expect(count).toBe(3);
  });

  it("GAP-04 (f): the 30th prompt passes, the 31st asks", () => {
    expect(antiLoopNeedsCard(29, { action: "send" })).toBe(false);
    expect(antiLoopNeedsCard(30, { action: "send" })).toBe(true);
    expect(antiLoopNeedsCard(30, { action: "read_session" })).toBe(false);
    const kinds = (count: number) =>
      cardsNeeded({
        action: "send",
        mode: "agent",
        relay: "build-box",
        approvals: NO_APPROVALS,
        promptsSinceOwnerWrote: count,
      }).map((card) => card.kind);
    let count = 0;
    for (let prompt = 1; prompt <= 30; prompt += 1) {
      expect(kinds(count), `prompt ${prompt}`).toEqual([]);
      count = loopCounterAfter(count, { kind: "call", call: { action: "send" } });
    }
    expect(count).toBe(30);
    expect(kinds(count), "prompt 31").toEqual(["anti_loop"]);
  });

  it("R-SCH-18: once the count is used up, a firing for another session is held", () => {
    expect(scheduleFiring({ count: 29, forOtherSession: true })).toBe("fire");
    expect(scheduleFiring({ count: 30, forOtherSession: true })).toBe("hold");
  });

  it("GAP-04 (f): the owner writing resets the count; R-QANS-05: question_answered does not", () => {
    expect(loopCounterAfter(31, { kind: "owner_message" })).toBe(0);
    expect(loopCounterAfter(31, { kind: "question_answered" })).toBe(31);
    expect(loopCounterAfter(31, { kind: "other_message" })).toBe(31);
  });

  it("R-SCH-19: Allow on an anti-loop card starts the count again", () => {
    expect(loopCounterAfter(30, { kind: "anti_loop_allowed" })).toBe(0);
  });

  // The model the property checks against: count the counted prompts after the last reset.
  const CALLS: CallShape[] = [
    { action: "send" },
    { action: "create_session" },
    { action: "schedule", forOtherSession: true },
    { action: "schedule", forOtherSession: false },
    { action: "ask", forOtherSession: true },
    { action: "read_session" },
    { action: "wait" },
    { action: "update_session" },
    { action: "answer_question" },
  ];
  const PROMPTS = new Set(["send", "create_session", "schedule+other"]);
  const keyOf = (call: CallShape) => (call.forOtherSession ? `${call.action}+other` : call.action);

  function randomEvent(random: Random): LoopEvent {
    switch (random.int(0, 10)) {
      case 0:
        return { kind: "owner_message" };
      case 10:
        return { kind: "anti_loop_allowed" };
      case 1:
        return { kind: "question_answered" };
      case 2:
        return { kind: "other_message" };
      case 3:
        return { kind: "schedule_fired", forOtherSession: random.bool() };
      default:
        return { kind: "call", call: random.pick(CALLS) };
    }
  }

  function countedSinceOwner(events: readonly LoopEvent[]): number {
    let count = 0;
    for (const event of events) {
      if (event.kind === "owner_message" || event.kind === "anti_loop_allowed") {
        count = 0;
      } else if (event.kind === "call" && PROMPTS.has(keyOf(event.call))) {
        count += 1;
      } else if (event.kind === "schedule_fired" && event.forOtherSession) {
        count += 1;
      }
    }
    return count;
  }

  it("property: the counter equals the number of counted prompts since the owner last wrote (or allowed an anti-loop card)", () => {
    forSeeds(400, (random) => {
      const events = Array.from({ length: random.int(0, 80) }, () => randomEvent(random));
      const counter = events.reduce(loopCounterAfter, 0);
      expect(counter, JSON.stringify(events)).toBe(countedSinceOwner(events));
      const kinds = events.map((event) => event.kind);
      const lastReset = Math.max(kinds.lastIndexOf("owner_message"), kinds.lastIndexOf("anti_loop_allowed"));
      expect(counter).toBeLessThanOrEqual(events.length - lastReset - 1);
    });
  });
});
