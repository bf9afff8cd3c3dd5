#!/usr/bin/env node
// An ACP agent for what the real CLIs cannot be made to do on demand: each prompt's text says
// what to do. ACP_NO_LOAD=1 takes away session/load; ACP_NO_HTTP=1 the MCP servers over HTTP.
import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const sessions = new Map();
const modes = {
  currentModeId: "default",
  availableModes: [
    { id: "default", name: "Default" },
    { id: "plan", name: "Plan" },
  ],
};
const modelOption = (value) => ({
  type: "select",
  id: "model",
  name: "Model",
  category: "model",
  currentValue: value,
  options: [
    { value: "fast", name: "Fast" },
    { value: "smart", name: "Smart" },
  ],
});

const say = (client, sessionId, text) =>
  client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });

acp
  .agent({ name: "scripted" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: process.env.ACP_NO_LOAD !== "1",
      mcpCapabilities: { http: process.env.ACP_NO_HTTP !== "1" },
    },
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, { mode: "default", model: "fast", turns: 0, mcp: params.mcpServers.length });
    return { sessionId, modes, configOptions: [modelOption("fast")] };
  })
  .onRequest(acp.methods.agent.session.load, ({ params }) => {
    if (!sessions.has(params.sessionId)) {
      throw acp.RequestError.resourceNotFound(params.sessionId);
    }
    return { modes, configOptions: [modelOption(sessions.get(params.sessionId).model)] };
  })
  .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
    sessions.get(params.sessionId).mode = params.modeId;
    return {};
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    sessions.get(params.sessionId).model = params.value;
    return { configOptions: [modelOption(params.value)] };
  })
  .onNotification(acp.methods.agent.session.cancel, () => undefined)
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const session = sessions.get(params.sessionId);
    session.turns += 1;
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    const usage = {
      inputTokens: 10 * session.turns,
      outputTokens: 2 * session.turns,
      totalTokens: 12 * session.turns,
    };
    if (text === "refuse") {
      return { stopReason: "refusal" };
    }
    if (text === "max") {
      await say(client, params.sessionId, "Partly");
      return { stopReason: "max_tokens" };
    }
    if (text === "ignore cancel") {
      await say(client, params.sessionId, "Busy");
      return new Promise(() => undefined);
    }
    if (text === "cost") {
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: {
          sessionUpdate: "usage_update",
          used: 100,
          size: 1000,
          cost: { amount: 0.25 * session.turns, currency: "USD" },
        },
      });
    }
    await say(
      client,
      params.sessionId,
      JSON.stringify({ mode: session.mode, model: session.model, mcp: session.mcp }),
    );
    return { stopReason: "end_turn", usage };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
