import type { LogFields, Logger } from "@oar/core";
import { describe, expect, it } from "vitest";
import type { EngineObserver, ToolCallReport, TurnEndedReport } from "../../src/ports/engine-observer";
import { T0 } from "../actions/harness";
import { createWatchingHarness } from "../watching/watching-harness";

const WINDOW_MS = 30_000;
const MIN = 60_000;

/** An observer and a logger that keep what they are told, in order. */
function recorders() {
  const seen = {
    turns: [] as TurnEndedReport[],
    started: [] as string[],
    calls: [] as ToolCallReport[],
    deliveries: [] as number[],
    firings: [] as number[],
    lines: [] as { level: string; message: string; fields: LogFields }[],
  };
  const observer: EngineObserver = {
    turnEnded: (turn) => seen.turns.push(turn),
    toolCallStarted: (action) => seen.started.push(action),
    toolCallEnded: (call) => seen.calls.push(call),
    deliverySent: (ms) => seen.deliveries.push(ms),
    scheduleFired: (ms) => seen.firings.push(ms),
  };
  const line =
    (level: string) =>
    (message: string, fields: LogFields = {}) => {
      seen.lines.push({ level, message, fields });
    };
  const logger: Logger = {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
  };
  return { seen, observer, logger };
}

describe("the engine's observer and its log lines (issue 33: logs and metrics)", () => {
  it("a turn's end is told once, with its provider, status and duration, and logged without its text", async () => {
    const { seen, observer, logger } = recorders();
    const h = await createWatchingHarness({ observer, logger });
    const target = await h.ownerSession({ title: "Worker" });
    await h.prompt(target, "a secret prompt");
    expect(seen.turns).toEqual([{ provider: "test", status: "done", durationMs: 0 }]);
    const ended = seen.lines.filter((l) => l.message === "turn ended");
    expect(ended).toEqual([
      {
        level: "info",
        message: "turn ended",
        fields: {
          turn: expect.any(String),
          session: target.id,
          provider: "test",
          status: "done",
          durationMs: 0,
        },
      },
    ]);
    const turn = await h.stores.sessions.getTurn(ended[0]?.fields.turn as string);
    expect(turn).toMatchObject({ sessionId: target.id, status: "done" });
    expect(JSON.stringify(seen.lines)).not.toContain("a secret prompt");
  });

  it("each relay_tool call is told started then ended with its outcome; a call that does not parse is `invalid`", async () => {
    const { seen, observer, logger } = recorders();
    const h = await createWatchingHarness({ observer, logger });
    await h.ok({ action: "list_sessions", relay: "this" });
    const refused = await h.call({ action: "no_such_action" });
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
    const badWait = await h.call({ action: "wait", relay: "this", session: "ses_x", wait_seconds: -1 });
    expect(badWait).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
    expect(seen.started).toEqual(["list_sessions"]);
    expect(seen.calls).toEqual([
      { action: "list_sessions", outcome: "ok", durationMs: 0, started: true },
      { action: "invalid", outcome: "REMOTE_RELAY_INVALID_INPUT", durationMs: 0, started: false },
      { action: "wait", outcome: "REMOTE_RELAY_INVALID_INPUT", durationMs: 0, started: false },
    ]);
    const lines = seen.lines.filter((l) => l.message === "relay_tool call");
    expect(lines.map((l) => [l.level, l.fields.action, l.fields.status, l.fields.session])).toEqual([
      ["info", "list_sessions", "ok", h.caller.id],
      ["info", "invalid", "REMOTE_RELAY_INVALID_INPUT", h.caller.id],
      ["info", "wait", "REMOTE_RELAY_INVALID_INPUT", h.caller.id],
    ]);
    // The log line and the conversation's activity name the call by the same id.
    await h.flow();
    await h.engine.close();
    const activity = await h.stores.toolCalls.listToolCalls(h.caller.id, { limit: 10 });
    expect(new Set(activity.map((call) => call.id))).toEqual(new Set(lines.map((l) => l.fields.call)));
  });

  it("a delivery sent at its window's end is 0 ms late; one sent after a pass the clock jumped over is late by the jump", async () => {
    const { seen, observer } = recorders();
    const h = await createWatchingHarness({ observer });
    const a = await h.ownerSession({ title: "A" });
    await h.subscribe({ sessions: [a.id], events: ["turn_end"] });
    await h.prompt(a, "first");
    await h.pass(WINDOW_MS);
    expect(seen.deliveries).toEqual([0]);
    await h.prompt(a, "second");
    // The timer of the window's end fires 5 s after it: the delivery is 5 s late.
    await h.jump(WINDOW_MS + 5_000);
    expect(seen.deliveries).toEqual([0, 5_000]);
  });

  it("a schedule firing at its slot is 0 ms late", async () => {
    const { seen, observer } = recorders();
    const h = await createWatchingHarness({ observer });
    await h.ok({
      action: "schedule",
      title: "Check",
      at: new Date(T0 + 10 * MIN).toISOString(),
      text: "Look at the build.",
    });
    await h.pass(10 * MIN - 1);
    expect(seen.firings).toEqual([]);
    await h.pass(1);
    expect(seen.firings).toEqual([0]);
  });
});
