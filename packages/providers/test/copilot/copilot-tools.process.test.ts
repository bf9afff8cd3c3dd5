import { existsSync } from "node:fs";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { bodyOf, conversationOf, text, toolResultsOf, toolUse } from "../../src/testing";
import { startRelayMcpServer } from "../claude/relay-mcp-server";
import {
  COPILOT_TEST_TIMEOUT_MS,
  copilotProvider,
  copilotTurn,
  createCopilotTestbed,
  startWorker,
} from "./copilot-testbed";

const TOKEN = "agent-token-of-ses_copilot";
const PERMISSION_OPTIONS = ["Allow once", "Always allow", "Deny"];

describe("copilot against the real CLI: tools", { timeout: COPILOT_TEST_TIMEOUT_MS }, () => {
  it("gives the agent the relay as an MCP server: the model's relay_tool call reaches it with the agent token, without a card", async () => {
    const bed = await createCopilotTestbed();
    const relay = await startRelayMcpServer(TOKEN);
    onTestFinished(() => relay.close());
    const call = { action: "list_sessions", relay: "this" };
    bed.fake.enqueue(toolUse("relay-relay_tool", call), text("There are no other sessions."));
    const io = createRecordingTurnIO({
      clock: new FakeClock(),
      access: { url: relay.url, sessionId: "ses_copilot", token: TOKEN },
    });

    const outcome = await startWorker(copilotProvider(bed), bed).runTurn(
      copilotTurn("List the sessions.", bed.cwd),
      io,
    );

    expect(outcome).toEqual({ status: "done", reply: "There are no other sessions." });
    expect(bodyOf(bed.fake.messageRequests[0]).tools?.map((tool) => tool.name)).toContain("relay-relay_tool");
    expect(relay.calls).toEqual([{ name: "relay_tool", arguments: call, authorization: `Bearer ${TOKEN}` }]);
    expect(io.questions).toEqual([]);
    const [result] = toolResultsOf(bed.fake.messageRequests[1]);
    expect(JSON.stringify(result?.content)).toContain("test-relay");
    expect(io.streamed.join("")).toBe(
      '🛰️ relay_tool {"action":"list_sessions","relay":"this"}\nThere are no other sessions.',
    );
  });

  it("asks the owner on a card with the agent's own options: Allow once runs the command", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(
      toolUse("bash", { command: "echo made > allowed.txt", description: "Write a file" }),
      text("Written."),
    );
    const io = createRecordingTurnIO({ clock: new FakeClock(), answer: { answer: "Allow once" } });

    const outcome = await startWorker(copilotProvider(bed), bed).runTurn(
      copilotTurn("Write it.", bed.cwd),
      io,
    );

    expect(outcome).toEqual({ status: "done", reply: "Written." });
    expect(io.questions).toEqual([
      {
        text: "Copilot asked to use Write a file (echo made > allowed.txt). Allow it?",
        options: PERMISSION_OPTIONS,
      },
    ]);
    expect(existsSync(join(bed.cwd, "allowed.txt"))).toBe(true);
    expect(io.streamed.join("")).toBe("⚙️ Write a file (echo made > allowed.txt)\nWritten.");
  });

  it("Deny: the command does not run and the reply says the owner denied it", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(toolUse("bash", { command: "echo made > denied.txt", description: "Write a file" }));
    const io = createRecordingTurnIO({ clock: new FakeClock(), answer: { answer: "Deny" } });

    const outcome = await startWorker(copilotProvider(bed), bed).runTurn(
      copilotTurn("Write it.", bed.cwd),
      io,
    );

    // Copilot ends the turn itself on a refusal, with its own line.
    expect(outcome).toEqual({
      status: "done",
      reply: "Info: Operation cancelled by user\nDenied by the owner: Write a file (echo made > denied.txt).",
    });
    expect(io.questions).toHaveLength(1);
    expect(existsSync(join(bed.cwd, "denied.txt"))).toBe(false);
  });

  it("plan mode: the agent is put in its plan mode, where the command it asks for is not run and not asked about; agent mode after it is Copilot's default again", async () => {
    const bed = await createCopilotTestbed();
    bed.fake.enqueue(
      toolUse("bash", { command: "echo made > planned.txt", description: "Write a file" }),
      text("Here is the plan."),
    );
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const worker = startWorker(copilotProvider(bed), bed, { mode: "plan" });
    const outcome = await worker.runTurn(copilotTurn("Plan it.", bed.cwd, { mode: "plan" }), io);

    expect(outcome).toEqual({ status: "done", reply: "Here is the plan." });
    // Copilot's plan mode: the prompt goes as [[PLAN]] and the CLI itself blocks the command.
    expect(conversationOf(bed.fake.messageRequests[0])).toContain("[[PLAN]] Plan it.");
    expect(JSON.stringify(toolResultsOf(bed.fake.messageRequests[1]))).toContain(
      "Plan mode does not permit changes",
    );
    expect(io.questions).toEqual([]);
    expect(existsSync(join(bed.cwd, "planned.txt"))).toBe(false);

    bed.fake.enqueue(text("Back to work."));
    await worker.runTurn(copilotTurn("Go on.", bed.cwd), createRecordingTurnIO({ clock: new FakeClock() }));
    const last = JSON.stringify(bodyOf(bed.fake.messageRequests.at(-1)).messages.at(-1));
    expect(last).toContain("Go on.");
    expect(last).not.toContain("[[PLAN]]");
  });
});
