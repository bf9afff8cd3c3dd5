import { describe, expect, it } from "vitest";
import {
  PEER_FEATURE_GATES,
  PEER_FEATURES,
  parseCall,
  peerFeatureGate,
  type RelayToolCall,
} from "../src/index";

function callOf(input: Record<string, unknown>): RelayToolCall {
  const parsed = parseCall({ relay: "build-box", ...input });
  if (!parsed.ok) {
    throw new Error(JSON.stringify(parsed.envelope));
  }
  return parsed.call;
}

describe("peer features (DESIGN §4 GET /v1/peer/info features)", () => {
  it("every gate's feature is one this relay lists, each name once", () => {
    expect(new Set(PEER_FEATURES).size).toBe(PEER_FEATURES.length);
    for (const gate of PEER_FEATURE_GATES) {
      expect(PEER_FEATURES).toContain(gate.feature);
    }
    expect(PEER_FEATURES).toEqual(expect.arrayContaining(["tool", "preflight"]));
  });

  it.each([
    ["R-RTO-08", "read_task_output", { action: "read_task_output", session: "s1", task_id: "t1" }],
    ["R-BILL-05", "billing_switch", { action: "send", session: "s1", text: "hi", provider: "claude" }],
    ["R-CGRP-07(d)", "create_session_group", { action: "create_session", text: "hi", group: "Release 2.4" }],
    ["R-UPD-28", "update_session", { action: "update_session", session: "s1", title: "x" }],
    ["R-QCHK-06", "session_questions", { action: "ask", session: "s1", question: "Ship?" }],
    ["R-QCHK-06", "session_questions", { action: "list_questions" }],
    ["R-QCHK-06", "session_questions", { action: "withdraw", question_id: "ask_1" }],
    ["R-PAIR-05", "subscriptions", { action: "subscribe", sessions: ["s1"] }],
    ["R-PAIR-05", "subscriptions", { action: "unsubscribe", subscription_id: "all" }],
    ["R-PAIR-05", "subscriptions", { action: "list_subscriptions" }],
    ["R-PAIR-05", "subscriptions", { action: "transfer_subscriptions", from: "s2" }],
  ] as const)("%s: the call needs %s", (rule, feature, input) => {
    expect(peerFeatureGate(callOf(input))).toMatchObject({ feature, rule });
  });

  it.each([
    ["list_sessions", { action: "list_sessions" }],
    ["read_session", { action: "read_session", session: "s1" }],
    ["send without provider (R-BILL-06)", { action: "send", session: "s1", text: "hi" }],
    ["send with an empty provider (R-CALL-09)", { action: "send", session: "s1", text: "hi", provider: "" }],
    ["create_session without group", { action: "create_session", text: "hi" }],
    ["create_session with an empty group (R-CGRP-04)", { action: "create_session", text: "hi", group: "" }],
    ["relay_info", { action: "relay_info" }],
  ] as const)("%s needs no feature", (_name, input) => {
    expect(peerFeatureGate(callOf(input))).toBeNull();
  });
});
