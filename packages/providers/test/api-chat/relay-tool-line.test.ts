import { describe, expect, it } from "vitest";
import { acpToolLine } from "../../src/acp/acp-transcript";
import { relayToolLine } from "../../src/shared/relay-tool-line";

describe("the 🛰️ line of a relay_tool call, shared by the ACP agents and the API models", () => {
  it("shows the call's JSON, cut at 200 characters", () => {
    expect(relayToolLine({ action: "list_sessions", relay: "this" })).toBe(
      '🛰️ relay_tool {"action":"list_sessions","relay":"this"}',
    );
    expect(relayToolLine(undefined)).toBe("🛰️ relay_tool {}");
    const long = relayToolLine({ action: "send", prompt: "p".repeat(300) });
    expect(long.slice("🛰️ relay_tool ".length)).toHaveLength(200);
    expect(long.endsWith("…")).toBe(true);
  });

  it("is the line an ACP agent's relay_tool call gets", () => {
    const input = { action: "read_session", session: "ses_1" };
    expect(acpToolLine({ toolCallId: "t1", title: "relay-relay_tool", rawInput: input })).toBe(
      relayToolLine(input),
    );
  });
});
