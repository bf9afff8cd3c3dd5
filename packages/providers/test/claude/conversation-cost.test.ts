import type { JsonValue } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { type ConversationCost, costAdded } from "../../src/claude/conversation-cost";
import { claudeProviderStateJson, readClaudeProviderState } from "../../src/claude/provider-state";

const A = "conversation-a";
const B = "conversation-b";
const cost = (claudeSessionId: string, totalUsd: number): ConversationCost => ({ claudeSessionId, totalUsd });

describe("what a Claude Code run added to the spend", () => {
  it("R-USAGE-02: the difference from the conversation's kept running total", () => {
    expect(costAdded(cost(A, 0.25), cost(A, 0.75))).toBe(0.5);
    expect(costAdded(cost(A, 0.25), cost(A, 0.25))).toBe(0);
  });

  it("R-USAGE-02: all of the total when nothing was kept, the conversation changed or its count started over", () => {
    expect(costAdded(null, cost(A, 0.5))).toBe(0.5);
    // Keyed by conversation: a new one's total counts whole even when it is above the old one's.
    expect(costAdded(cost(A, 0.25), cost(B, 0.5))).toBe(0.5);
    expect(costAdded(cost(A, 0.75), cost(A, 0.5))).toBe(0.5);
  });
});

describe("the Claude provider state", () => {
  it("keeps the conversation's running total across a round trip through JSON (a relay restart)", () => {
    const state = {
      claudeSessionId: A,
      allowedTools: ["Bash"],
      conversationCost: { claudeSessionId: A, totalUsd: 0.0012 },
    };
    const stored = JSON.parse(JSON.stringify(claudeProviderStateJson(state)));
    expect(readClaudeProviderState(stored)).toEqual(state);
  });

  it("reads a state without a total, or with a broken one, as nothing kept", () => {
    const broken: JsonValue[] = [
      { claudeSessionId: A },
      { claudeSessionId: A, conversationCost: { claudeSessionId: A } },
      { claudeSessionId: A, conversationCost: { claudeSessionId: "", totalUsd: 1 } },
      { claudeSessionId: A, conversationCost: { claudeSessionId: A, totalUsd: -1 } },
      { claudeSessionId: A, conversationCost: { claudeSessionId: A, totalUsd: "1" } },
      { claudeSessionId: A, conversationCost: [A, 1] },
    ];
    for (const value of broken) {
      expect(readClaudeProviderState(value).conversationCost, JSON.stringify(value)).toBeNull();
    }
  });
});
