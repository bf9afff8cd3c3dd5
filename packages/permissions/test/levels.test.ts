import { ACTIONS, actionMeta } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { isWrite, LEVEL_LABELS, LEVELS, levelAllows, PERMISSION_TABLE, requiredLevel } from "../src";

describe("levels (DESIGN GAP-03)", () => {
  it("orders none < read < prompt < full and labels them as Settings → Relays does", () => {
    expect(LEVELS).toEqual(["none", "read", "prompt", "full"]);
    expect(LEVEL_LABELS.prompt).toBe("Read and prompt");
    expect(levelAllows("full", "prompt")).toBe(true);
    expect(levelAllows("prompt", "prompt")).toBe(true);
    expect(levelAllows("read", "prompt")).toBe(false);
    expect(levelAllows("none", "read")).toBe(false);
  });

  it("R-PERM-05, GAP-03: the level each action needs on a paired relay", () => {
    const needed = Object.fromEntries(ACTIONS.map((action) => [action, requiredLevel(action)]));
    expect(needed).toEqual({
      list_relays: "none",
      relay_info: "read",
      usage: "read",
      list_sessions: "read",
      read_session: "read",
      read_task_output: "read",
      wait: "read",
      subscribe: "read",
      unsubscribe: "read",
      list_subscriptions: "read",
      send: "prompt",
      answer_question: "prompt",
      create_session: "full",
      update_session: "full",
      stop: "full",
      archive: "full",
      transfer_subscriptions: "full",
      // R-SCH-03: never on a paired relay.
      schedule: "this_relay_only",
      list_schedules: "this_relay_only",
      unschedule: "this_relay_only",
      // R-QCHK-01: neither a setting nor a mention.
      ask: "none",
      list_questions: "none",
      withdraw: "none",
    });
    expect(requiredLevel("ask", { forOtherSession: true })).toBe("prompt");
    expect(requiredLevel("schedule", { forOtherSession: true })).toBe("this_relay_only");
  });

  it("takes every level it enforces from @oar/schema's actionMeta, except where R-QCHK-01 frees the call", () => {
    const freed = new Set(["ask", "list_questions", "withdraw"]);
    for (const action of ACTIONS) {
      const level = requiredLevel(action, { forOtherSession: true });
      const meta = actionMeta[action];
      if (meta.thisRelayOnly) {
        expect(level, action).toBe("this_relay_only");
      } else if (!freed.has(action) || action === "ask") {
        expect(level, action).toBe(meta.minLevel);
      }
    }
    expect(Object.keys(PERMISSION_TABLE).sort()).toEqual([...ACTIONS].sort());
  });

  it("GAP-04: write actions, ask only for another session (R-QCHK-03)", () => {
    const writes = ACTIONS.filter((action) => isWrite({ action }));
    expect(writes).toEqual([
      "send",
      "create_session",
      "update_session",
      "answer_question",
      "stop",
      "archive",
      "subscribe",
      "unsubscribe",
      "transfer_subscriptions",
      "schedule",
      "unschedule",
      "withdraw",
    ]);
    expect(isWrite({ action: "ask", forOtherSession: true })).toBe(true);
    expect(isWrite({ action: "ask", forOtherSession: false })).toBe(false);
  });
});
