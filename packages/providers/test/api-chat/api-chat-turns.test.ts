import { RELAY_TOOL_DESCRIPTION, relayToolInputJsonSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { chatError, chatText, chatToolCall } from "../../src/testing";
import { apiChatTestbed, chatBodyOf, dialogueOf, startTurn, TEST_API_KEY } from "./api-chat-testbed";

describe("grok/deepseek turns: the relay runs the agent loop against the chat API", () => {
  it("streams the reply through appendText, with the key, the model, the system prompt and relay_tool as the one tool", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatText("Hello from Grok"));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Say hello", model: "grok-4.6" });

    expect(await turn.outcome).toEqual({ status: "done", reply: "Hello from Grok" });
    // The fake sends the text in two pieces: both reach the stream, in order.
    expect(turn.io.streamed).toEqual(["Hello fr", "om Grok"]);
    const [request] = bed.fake.chatRequests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    const body = chatBodyOf(request);
    expect(body).toMatchObject({ model: "grok-4.6", stream: true, stream_options: { include_usage: true } });
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "relay_tool",
          description: RELAY_TOOL_DESCRIPTION,
          parameters: relayToolInputJsonSchema,
        },
      },
    ]);
    const [system] = body.messages;
    expect(system?.role).toBe("system");
    expect(system?.content).toMatch(/agent of the session "Triage" \(ses_api1\) on an OAR relay/);
    expect(system?.content).toMatch(/Mode: agent\./);
    expect(dialogueOf(request)).toEqual(["user: Say hello"]);
  });

  it("tells the model in plan mode that it must change nothing", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatText("A plan"));
    await startTurn(bed, bed.startWorker(), { prompt: "Plan it", mode: "plan" }).outcome;
    const system = chatBodyOf(bed.fake.chatRequests[0]).messages[0]?.content;
    expect(system).toMatch(/Mode: plan\. You must change nothing/);
  });

  it("runs the model's relay_tool call as the session and gives its result back to the model in the next request", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(
      chatToolCall("relay_tool", { action: "list_sessions", relay: "this" }, { text: "Let me look." }),
      chatText("There are no other sessions."),
    );
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Who else is here?" }, () => ({
      ok: true,
      sessions: [],
    }));

    const outcome = await turn.outcome;
    expect(turn.io.toolCalls).toEqual([{ action: "list_sessions", relay: "this" }]);
    expect(turn.io.streamed.join("")).toBe(
      'Let me look.\n🛰️ relay_tool {"action":"list_sessions","relay":"this"}\nThere are no other sessions.',
    );
    // The reply is what the model said; the 🛰️ line is in the transcript only.
    expect(outcome).toEqual({ status: "done", reply: "Let me look.\nThere are no other sessions." });
    expect(bed.fake.chatRequests).toHaveLength(2);
    expect(dialogueOf(bed.fake.chatRequests[1])).toEqual([
      "user: Who else is here?",
      'assistant: Let me look. [relay_tool {"action":"list_sessions","relay":"this"}]',
      'tool(call_fake_1): {"ok":true,"sessions":[]}',
    ]);
  });

  it("feeds a refused call's ok:false result to the model like any other, and goes on", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatToolCall("relay_tool", { action: "nope" }), chatText("That action does not exist."));
    const refusal = {
      ok: false,
      error: { code: "REMOTE_RELAY_INVALID_INPUT", message: "unknown action nope" },
    };
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Try" }, () => refusal);

    expect(await turn.outcome).toEqual({ status: "done", reply: "That action does not exist." });
    expect(dialogueOf(bed.fake.chatRequests[1]).at(-1)).toBe(`tool(call_fake_1): ${JSON.stringify(refusal)}`);
  });

  it("R-NAME-07: runs a call of the legacy name remote_relay as relay_tool, which alone is listed", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatToolCall("remote_relay", { action: "relay_info" }), chatText("Done."));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Info" });

    expect(await turn.outcome).toEqual({ status: "done", reply: "Done." });
    expect(turn.io.toolCalls).toEqual([{ action: "relay_info" }]);
    expect(turn.io.streamed.join("")).toContain('🛰️ relay_tool {"action":"relay_info"}');
    expect(chatBodyOf(bed.fake.chatRequests[0]).tools?.map((t) => t.function.name)).toEqual(["relay_tool"]);
    expect(dialogueOf(bed.fake.chatRequests[1]).at(-1)).toBe('tool(call_fake_1): {"ok":true,"n":1}');
  });

  it("runs no other tool: the model is told the tool is not there and goes on", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatToolCall("bash", { command: "ls" }), chatText("I only have relay_tool."));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "List files" });

    expect(await turn.outcome).toEqual({ status: "done", reply: "I only have relay_tool." });
    expect(turn.io.toolCalls).toEqual([]);
    expect(turn.io.streamed.join("")).toContain("⚙️ bash (not run: relay_tool is the only tool)");
    expect(dialogueOf(bed.fake.chatRequests[1]).at(-1)).toMatch(/^tool\(call_fake_1\): .*bash/);
  });

  it("stops after maxSteps model calls while the model still wants tools: error with the reply so far", async () => {
    const bed = await apiChatTestbed({ source: { maxSteps: 3 } });
    bed.fake.enqueue(
      chatToolCall("relay_tool", { action: "list_sessions" }, { text: "One." }),
      chatToolCall("relay_tool", { action: "list_sessions" }, { text: "Two." }),
      chatToolCall("relay_tool", { action: "list_sessions" }, { text: "Three." }),
      chatText("never asked for"),
    );
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Loop" });

    expect(await turn.outcome).toEqual({
      status: "error",
      error:
        "Grok stopped after 3 steps: the model still wanted to call relay_tool, and a turn takes at most 3 model calls. Send a prompt to let it go on.",
      reply: "One.\nTwo.\nThree.",
    });
    expect(bed.fake.chatRequests).toHaveLength(3);
    expect(turn.io.toolCalls).toHaveLength(3);
  });

  it("takes 25 steps by default, and a model that ends on the 25th is done", async () => {
    const bed = await apiChatTestbed();
    const calls = Array.from({ length: 24 }, () => chatToolCall("relay_tool", { action: "relay_info" }));
    bed.fake.enqueue(...calls, chatText("Finally."));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Long" });

    expect(await turn.outcome).toEqual({ status: "done", reply: "Finally." });
    expect(bed.fake.chatRequests).toHaveLength(25);

    bed.fake.enqueue(
      ...Array.from({ length: 25 }, () => chatToolCall("relay_tool", { action: "relay_info" })),
    );
    bed.fake.enqueue(chatText("never asked for"));
    const second = startTurn(bed, bed.startWorker(), { prompt: "Longer" });
    expect(await second.outcome).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^Grok stopped after 25 steps/),
    });
    expect(bed.fake.chatRequests).toHaveLength(50);
    expect(bed.fake.unscripted).toHaveLength(0);
  });

  it("ends the turn error with the provider, the HTTP status and the API's own message, without retrying", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatError(401, "Incorrect API key provided: xa***89.", "authentication_error"));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Hi" });

    expect(await turn.outcome).toEqual({
      status: "error",
      error: "Grok's API refused the request (401): Incorrect API key provided: xa***89.",
    });
    expect(bed.fake.chatRequests).toHaveLength(1);
    expect(turn.io.usages).toEqual([]);
    expect(JSON.stringify(await turn.outcome)).not.toContain(TEST_API_KEY);
  });

  it("says a 5xx failed, and an error after a tool call keeps the reply so far", async () => {
    const bed = await apiChatTestbed({ id: "deepseek", entry: {} });
    bed.fake.enqueue(
      chatToolCall("relay_tool", { action: "relay_info" }, { text: "Checking." }),
      chatError(503, "Service is too busy", "server_error"),
    );
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Hi", model: "deepseek-chat" });

    expect(await turn.outcome).toEqual({
      status: "error",
      error: "DeepSeek's API failed (503): Service is too busy",
      reply: "Checking.",
    });
  });

  it("says so when the API cannot be reached", async () => {
    const bed = await apiChatTestbed({ entry: { baseUrl: "http://127.0.0.1:1/v1" } });
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Hi" });
    const outcome = await turn.outcome;
    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.error).toMatch(
      /^Grok's API could not be reached at http:\/\/127\.0\.0\.1:1\/v1: /,
    );
    expect(outcome.status === "error" && outcome.error).not.toMatch(/\n\s+at /);
  });
});
