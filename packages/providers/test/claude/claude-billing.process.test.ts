import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { claudeProviderSource } from "../../src";
import { text, toolResultsOf, toolUse } from "../../src/testing";
import {
  CLAUDE_TEST_TIMEOUT_MS,
  createClaudeTestbed,
  findProvider,
  pinnedClaudeBinary,
  sessionOf,
  startApiWorker,
  turnOf,
} from "./claude-testbed";

describe("billing: which credentials the real CLI gets", { timeout: CLAUDE_TEST_TIMEOUT_MS }, () => {
  it("claude-api pays with the configured key, not the relay's own or another credential", async () => {
    const bed = await createClaudeTestbed();
    bed.env.ANTHROPIC_API_KEY = "relay-own-key";
    bed.env.ANTHROPIC_AUTH_TOKEN = "relay-own-token";
    bed.fake.enqueue(text("Paid by the key."));
    const worker = startApiWorker(bed, { apiKey: "sk-ant-configured-key" });

    const outcome = await worker.runTurn(
      turnOf("Hello.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome).toEqual({ status: "done", reply: "Paid by the key." });
    for (const request of bed.fake.requests) {
      expect(request.headers["x-api-key"]).toBe("sk-ant-configured-key");
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it("claude leaves ANTHROPIC_API_KEY out, so the CLI uses its own login", async () => {
    const bed = await createClaudeTestbed();
    bed.env.ANTHROPIC_API_KEY = "relay-own-key";
    // Stands in for the CLI's subscription login, which a test cannot have.
    bed.env.ANTHROPIC_AUTH_TOKEN = "login-token";
    bed.fake.enqueue(text("Paid by the subscription."));
    const source = claudeProviderSource({ bin: pinnedClaudeBinary(), env: bed.env });
    const worker = findProvider(source.providers({}), "claude").startWorker(sessionOf(bed.cwd));

    const outcome = await worker?.runTurn(
      turnOf("Hello.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome).toEqual({ status: "done", reply: "Paid by the subscription." });
    for (const request of bed.fake.requests) {
      expect(request.headers["x-api-key"]).toBeUndefined();
      expect(request.headers.authorization).toBe("Bearer login-token");
    }
  });

  it("gives the CLI and its tools the session's relay access as OAR_RELAY_URL and OAR_SESSION", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(
      toolUse("Bash", { command: "printenv OAR_RELAY_URL OAR_SESSION", description: "Show the relay" }),
      text("Done."),
    );
    const worker = startApiWorker(bed, { session: { providerState: { allowedTools: ["Bash"] } } });
    const io = createRecordingTurnIO({
      clock: new FakeClock(),
      access: { url: "http://127.0.0.1:9/", sessionId: "ses_claude", token: "agent-token" },
    });

    await worker.runTurn(turnOf("Where is the relay?", bed.cwd), io);

    const [result] = toolResultsOf(bed.fake.messageRequests[1]);
    expect(JSON.stringify(result?.content)).toContain("http://127.0.0.1:9\\nses_claude");
  });
});
