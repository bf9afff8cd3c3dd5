import { describe, expect, it } from "vitest";
import {
  DEFAULT_EVENTS,
  EventKindSchema,
  RelayEventSchema,
  SubscribableEventSchema,
  URGENT_EVENTS,
} from "../src/index";

const base = { id: "evt_1", at: "2026-10-18T09:12:00.000Z", session: "3f9c…", title: "Review: server/" };

const samples: Record<string, Record<string, unknown>> = {
  turn_end: { status: "done", text: "Found 4 places without input checks: …", message_id: "b41e…" },
  error: { message: "provider crashed" },
  question_asked: {
    question_id: "q_1",
    questionKind: "ask_user",
    text: "Merge?",
    options: ["Merge", "Wait"],
  },
  question_answered: {
    question_id: "ask_7d2…",
    questionKind: "ask",
    text: "Ship tonight?",
    answer: "Wait",
    choice: "Wait",
    dismissed: false,
    via: "desk",
  },
  subagent_finished: { task_id: "t1", description: "explore", exitCode: 0 },
  task_started: { task_id: "t1", description: "npm test", type: "local_bash" },
  task_finished: { task_id: "t1", description: "npm test", exitCode: 0 },
  task_failed: { task_id: "t1", description: "npm test", exitCode: 1 },
  stalled: { minutes: 15, task_id: "t1", description: "npm test" },
  all_idle: { session: null, title: null, watchedCount: 2 },
  heartbeat: { session: null, title: null, sessions: [{ id: "3f9c…", title: "Review", state: "idle" }] },
  link_lost: { relay: "build-box", session: null, title: null },
  link_restored: { relay: "build-box", session: null, title: null, replayed: 12, held: 3 },
};

describe("events (R-EVT-*, GAP-13/14)", () => {
  it("GAP-13: the 13 event kinds", () => {
    expect(EventKindSchema.options).toEqual([
      "turn_end",
      "error",
      "question_asked",
      "question_answered",
      "subagent_finished",
      "task_started",
      "task_finished",
      "task_failed",
      "stalled",
      "all_idle",
      "heartbeat",
      "link_lost",
      "link_restored",
    ]);
  });

  it("R-EVT-01: the default set", () => {
    expect([...DEFAULT_EVENTS].sort()).toEqual(
      [
        "question_asked",
        "error",
        "turn_end",
        "subagent_finished",
        "task_failed",
        "stalled",
        "all_idle",
      ].sort(),
    );
  });

  it("R-FEW-02/R-DLV-06: urgent events are question_asked, question_answered and error", () => {
    expect([...URGENT_EVENTS].sort()).toEqual(["error", "question_answered", "question_asked"]);
  });

  it("R-EVT-04: subscribe may name every event a session produces, not the subscription's own lines", () => {
    expect(SubscribableEventSchema.options).not.toContain("heartbeat");
    expect(SubscribableEventSchema.options).not.toContain("link_lost");
    expect(SubscribableEventSchema.options).toContain("task_started");
    expect(SubscribableEventSchema.options).toContain("task_finished");
  });

  it("GAP-13: every kind has a payload schema with session, title and at", () => {
    for (const kind of EventKindSchema.options) {
      const event = { ...base, kind, ...samples[kind] };
      const parsed = RelayEventSchema.safeParse(event);
      expect(parsed.success, `${kind}: ${parsed.error?.message}`).toBe(true);
      const { at: _at, ...withoutAt } = event;
      expect(RelayEventSchema.safeParse(withoutAt).success, `${kind} without at`).toBe(false);
    }
  });

  it("GAP-13: turn_end carries at most the first 200 characters of the reply", () => {
    const event = { ...base, kind: "turn_end", status: "done", text: "x".repeat(201) };
    expect(RelayEventSchema.safeParse(event).success).toBe(false);
  });

  it("R-QANS-01: question_answered carries answer, choice, dismissed and via", () => {
    const { via: _via, ...withoutVia } = samples.question_answered ?? {};
    expect(RelayEventSchema.safeParse({ ...base, kind: "question_answered", ...withoutVia }).success).toBe(
      false,
    );
  });

  it("events carry ISO instants, not other date strings", () => {
    const event = { ...base, at: "18/10/2026 09:12", kind: "error", message: "x" };
    expect(RelayEventSchema.safeParse(event).success).toBe(false);
  });
});
