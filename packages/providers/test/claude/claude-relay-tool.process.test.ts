import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { bodyOf, text, toolResultsOf, toolUse } from "../../src/testing";
import { CLAUDE_TEST_TIMEOUT_MS, createClaudeTestbed, startApiWorker, turnOf } from "./claude-testbed";
import { startRelayMcpServer } from "./relay-mcp-server";

const TOKEN = "agent-token-of-ses_claude";

describe("claude-api against the real CLI: the relay's MCP tool", { timeout: CLAUDE_TEST_TIMEOUT_MS }, () => {
  it("gives the CLI the relay's MCP server, so the model's relay_tool call reaches it with the agent token", async () => {
    const bed = await createClaudeTestbed();
    const relay = await startRelayMcpServer(TOKEN);
    onTestFinished(() => relay.close());
    const call = { action: "list_sessions", relay: "this" };
    bed.fake.enqueue(toolUse("mcp__relay__relay_tool", call), text("There are no other sessions."));
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({
      clock: new FakeClock(),
      access: { url: relay.url, sessionId: "ses_claude", token: TOKEN },
    });

    const outcome = await worker.runTurn(turnOf("List the sessions.", bed.cwd), io);

    expect(outcome).toEqual({ status: "done", reply: "There are no other sessions." });
    // The CLI offered the tool to the model, under the name the relay's docs use.
    expect(bodyOf(bed.fake.messageRequests[0]).tools?.map((tool) => tool.name)).toContain(
      "mcp__relay__relay_tool",
    );
    expect(relay.calls).toEqual([{ name: "relay_tool", arguments: call, authorization: `Bearer ${TOKEN}` }]);
    expect(relay.refused).toBe(0);
    const [result] = toolResultsOf(bed.fake.messageRequests[1]);
    expect(JSON.stringify(result?.content)).toContain('\\"relay\\":\\"test-relay\\"');
    expect(result?.is_error).not.toBe(true);
    expect(io.streamed.join("")).toBe(
      '🛰️ mcp__relay__relay_tool {"action":"list_sessions","relay":"this"}\nThere are no other sessions.',
    );
  });

  it("says in the transcript when the CLI could not connect to the relay's server (the token was refused)", async () => {
    const bed = await createClaudeTestbed();
    const relay = await startRelayMcpServer(TOKEN);
    onTestFinished(() => relay.close());
    bed.fake.enqueue(text("I cannot reach the relay."));
    const worker = startApiWorker(bed);
    const io = createRecordingTurnIO({
      clock: new FakeClock(),
      access: { url: relay.url, sessionId: "ses_claude", token: "a-token-the-relay-does-not-know" },
    });

    const outcome = await worker.runTurn(turnOf("List the sessions.", bed.cwd), io);

    expect(outcome).toEqual({ status: "done", reply: "I cannot reach the relay." });
    expect(relay.refused).toBeGreaterThan(0);
    expect(io.streamed[0]).toBe(
      "⚠️ Claude Code could not connect to the relay's MCP server (status: failed), so mcp__relay__relay_tool is not available in this turn.",
    );
  });

  it("runs without the relay's server when the relay has no access to give", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("No relay here."));
    const worker = startApiWorker(bed);

    const outcome = await worker.runTurn(
      turnOf("Hello.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome).toEqual({ status: "done", reply: "No relay here." });
    const tools = bodyOf(bed.fake.messageRequests[0]).tools?.map((tool) => tool.name) ?? [];
    expect(tools.filter((name) => name.startsWith("mcp__"))).toEqual([]);
  });
});
