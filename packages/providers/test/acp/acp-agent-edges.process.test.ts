import { fileURLToPath } from "node:url";
import { FakeClock } from "@oar/core/testing";
import type { Provider } from "@oar/engine";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { acpProviderSource } from "../../src";
import { type CliTestbed, createCliTestbed } from "../cli-testbed";
import { copilotTurn, startWorker } from "../copilot/copilot-testbed";

const AGENT = fileURLToPath(new URL("./scripted-acp-agent.mjs", import.meta.url));
const TIMEOUT_MS = 30_000;

function scriptedProvider(
  bed: CliTestbed,
  extra: Record<string, unknown> = {},
  clock = new FakeClock(),
): Provider {
  const [provider] = acpProviderSource({
    env: bed.env,
    cancelGraceMs: 200,
    killGraceMs: 500,
    idleMs: 60_000,
    clock,
  }).providers({
    scripted: { acp: [process.execPath, AGENT], label: "Scripted", ...extra },
  });
  if (provider === undefined) {
    throw new Error("the definition makes a provider");
  }
  return provider;
}

const turn = (prompt: string, bed: CliTestbed, overrides = {}) =>
  copilotTurn(prompt, bed.cwd, { model: "fast", ...overrides });
const io = () => createRecordingTurnIO({ clock: new FakeClock() });

describe("an ACP agent defined in the settings: what real CLIs do not do on demand", {
  timeout: TIMEOUT_MS,
}, () => {
  it("refusal and max_tokens end the turn in error saying so, with what was streamed", async () => {
    const bed = await createCliTestbed(() => ({}));
    const worker = startWorker(scriptedProvider(bed), bed);

    expect(await worker.runTurn(turn("refuse", bed), io())).toEqual({
      status: "error",
      error: "Scripted refused to go on (stop reason: refusal).",
    });
    expect(await worker.runTurn(turn("max", bed), io())).toEqual({
      status: "error",
      error: "Scripted reached its maximum number of output tokens (stop reason: max_tokens).",
      reply: "Partly",
    });
  });

  it("takes its models from the agent when the definition lists none, and sets the session's model and mode through the agent's options", async () => {
    const bed = await createCliTestbed(() => ({}));
    const provider = scriptedProvider(bed);
    expect(provider.info.models).toBeNull();
    const worker = startWorker(provider, bed);

    expect(await worker.runTurn(turn("state", bed), io())).toEqual({
      status: "done",
      reply: '{"mode":"default","model":"fast","mcp":0}',
    });
    expect(provider.info.models).toEqual([{ id: "fast", default: true }, { id: "smart" }]);
    expect(await worker.runTurn(turn("state", bed, { model: "smart", mode: "plan" }), io())).toEqual({
      status: "done",
      reply: '{"mode":"plan","model":"smart","mcp":0}',
    });
    expect(await worker.runTurn(turn("state", bed, { model: "smart", mode: "ask" }), io())).toEqual({
      status: "done",
      reply: '{"mode":"default","model":"smart","mcp":0}',
    });
  });

  it("counts what each turn adds to the session's running token and cost totals", async () => {
    const bed = await createCliTestbed(() => ({}));
    const worker = startWorker(scriptedProvider(bed), bed);
    const first = io();
    const second = io();

    await worker.runTurn(turn("cost", bed), first);
    await worker.runTurn(turn("cost", bed), second);

    expect(first.usages).toEqual([{ inputTokens: 10, outputTokens: 2, costUsd: 0.25 }]);
    // The agent reports 20 / 4 / 0.50 in all after the second turn.
    expect(second.usages).toEqual([{ inputTokens: 10, outputTokens: 2, costUsd: 0.25 }]);
  });

  it("an agent that ignores session/cancel is killed after the grace; the next turn starts over and says the conversation is gone", async () => {
    const bed = await createCliTestbed(() => ({}));
    const worker = startWorker(scriptedProvider(bed), bed);
    await worker.runTurn(turn("state", bed), io());
    const busy = io();
    const running = worker.runTurn(turn("ignore cancel", bed), busy);
    await expect.poll(() => busy.streamed.join("")).toBe("Busy");

    busy.controller.abort();

    expect(await running).toEqual({ status: "stopped", reply: "Busy" });
    expect(bed.livingProcesses()).toEqual([]);
    const next = await worker.runTurn(turn("state", bed), io());
    expect(next.status).toBe("done");
    expect(next.status === "done" && next.reply).toMatch(
      /^⚠️ Scripted no longer has this session's conversation \([0-9a-f-]{36}\): it could not reopen it: Resource not found.*, so this turn starts a new one without the earlier messages\.\n\{"mode":"default"/s,
    );
  });

  it("without session/load a new worker starts a new conversation and says why", async () => {
    const bed = await createCliTestbed(() => ({ ACP_NO_LOAD: "1" }));
    const provider = scriptedProvider(bed);
    const first = io();
    const before = startWorker(provider, bed);
    await before.runTurn(turn("state", bed), first);
    await before.close();
    expect(bed.livingProcesses()).toEqual([]);

    const next = await startWorker(provider, bed, { providerState: first.savedStates[0] ?? null }).runTurn(
      turn("state", bed),
      io(),
    );

    expect(next.status === "done" && next.reply.split("\n")[0]).toMatch(
      /^⚠️ Scripted no longer has this session's conversation \([0-9a-f-]{36}\): it cannot reopen a conversation in a new process \(it does not offer session\/load\), so this turn starts a new one without the earlier messages\.$/,
    );
  });

  it("gives the relay as an MCP server when the agent takes HTTP servers, and says relay_tool is missing when it does not", async () => {
    const access = { url: "http://127.0.0.1:9", sessionId: "ses_copilot", token: "t" };
    const withHttp = await createCliTestbed(() => ({}));
    const given = await startWorker(scriptedProvider(withHttp), withHttp).runTurn(
      turn("state", withHttp),
      createRecordingTurnIO({ clock: new FakeClock(), access }),
    );
    expect(given).toEqual({ status: "done", reply: '{"mode":"default","model":"fast","mcp":1}' });

    const noHttp = await createCliTestbed(() => ({ ACP_NO_HTTP: "1" }));
    const missing = await startWorker(scriptedProvider(noHttp), noHttp).runTurn(
      turn("state", noHttp),
      createRecordingTurnIO({ clock: new FakeClock(), access }),
    );
    expect(missing).toEqual({
      status: "done",
      reply:
        '⚠️ Scripted does not take MCP servers over HTTP, so relay_tool is not available to it.\n{"mode":"default","model":"fast","mcp":0}',
    });
  });

  it("an agent idle past idleMs (on the relay's clock) is ended; the next turn starts another", async () => {
    const bed = await createCliTestbed(() => ({}));
    const clock = new FakeClock();
    const worker = startWorker(scriptedProvider(bed, {}, clock), bed);
    await worker.runTurn(turn("state", bed), io());
    expect(bed.livingProcesses()).toHaveLength(1);

    clock.advance(59_999);
    expect(bed.livingProcesses()).toHaveLength(1);
    clock.advance(1);
    await expect.poll(() => bed.livingProcesses()).toEqual([]);

    const next = await worker.runTurn(turn("state", bed), io());
    expect(next.status === "done" && next.reply).toMatch(/\{"mode":"default","model":"fast","mcp":0\}$/);
    expect(bed.livingProcesses()).toHaveLength(1);
  });

  it("a program that cannot be run fails the turn naming it", async () => {
    const bed = await createCliTestbed(() => ({}));
    const [provider] = acpProviderSource({ env: bed.env }).providers({
      missing: { acp: ["/nonexistent/acp-agent", "--acp"] },
    });
    const outcome = await startWorker(provider as Provider, bed).runTurn(turn("state", bed), io());
    expect(outcome).toEqual({
      status: "error",
      error: "acp-agent could not start: `/nonexistent/acp-agent` could not start (ENOENT).",
    });
  });
});
