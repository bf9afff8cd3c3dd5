import { describe, expect, it } from "vitest";
import { readClaudeEvent } from "../../src/claude/claude-events";
import { createJsonLineReader } from "../../src/claude/stream-json";

describe("reading the CLI's stream-json", () => {
  it("joins a line cut between chunks and hands non-JSON lines aside", () => {
    const json: unknown[] = [];
    const other: string[] = [];
    const reader = createJsonLineReader({ onJson: (v) => json.push(v), onOther: (l) => other.push(l) });

    reader.push('{"type":"sys');
    reader.push('tem","n":1}\nWarning: something\n\n{"n"');
    reader.push(":2}");
    reader.end();

    expect(json).toEqual([{ type: "system", n: 1 }, { n: 2 }]);
    expect(other).toEqual(["Warning: something"]);
  });

  it("reads the init line's session, tools and MCP servers", () => {
    expect(
      readClaudeEvent({
        type: "system",
        subtype: "init",
        session_id: "s1",
        tools: ["Bash", "mcp__relay__relay_tool"],
        mcp_servers: [{ name: "relay", status: "connected" }],
      }),
    ).toEqual({
      kind: "init",
      sessionId: "s1",
      tools: ["Bash", "mcp__relay__relay_tool"],
      mcpServers: { relay: "connected" },
    });
  });

  it("skips sub-agents' messages and the CLI's made-up API error messages", () => {
    const message = { content: [{ type: "text", text: "x" }] };
    expect(readClaudeEvent({ type: "assistant", message, parent_tool_use_id: "toolu_1" })).toBeUndefined();
    expect(readClaudeEvent({ type: "assistant", message, is_api_error_message: true })).toBeUndefined();
    expect(readClaudeEvent({ type: "assistant", message, parent_tool_use_id: null })).toEqual({
      kind: "assistant",
      blocks: [{ type: "text", text: "x" }],
    });
  });

  it("reads a result's cost, tokens (cached ones count as input) and permission denials", () => {
    const event = readClaudeEvent({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "Done.",
      session_id: "s1",
      total_cost_usd: 0.25,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 5,
        cache_read_input_tokens: 100,
        output_tokens: 7,
      },
      permission_denials: [{ tool_name: "Bash", tool_use_id: "t1", tool_input: { command: "rm -rf x" } }],
    });
    expect(event).toEqual({
      kind: "result",
      result: {
        sessionId: "s1",
        isError: false,
        subtype: "success",
        text: "Done.",
        errors: [],
        costUsd: 0.25,
        inputTokens: 115,
        outputTokens: 7,
        denials: [{ toolName: "Bash", input: { command: "rm -rf x" } }],
      },
    });
  });
});
