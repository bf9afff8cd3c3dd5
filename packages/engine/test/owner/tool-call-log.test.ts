import { type Logger, RelayError } from "@oar/core";
import { OwnerSessionDetailSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { clip, TOOL_CALL_SUMMARY_MAX_CHARS } from "../../src/actions/tool-call-log";
import {
  createToolCallWriter,
  TOOL_CALL_BATCH_MAX,
  TOOL_CALL_HELD_MAX,
  TOOL_CALL_WINDOW_MS,
} from "../../src/live/tool-call-writer";
import type { ToolCallRecord } from "../../src/ports/tool-call-store";
import { RETRY_FIRST_MS } from "../../src/shared/outage";
import { withFailingMethod } from "../../src/testing";
import { createHarness, settle, T0 } from "../actions/harness";
import { createFederation, relayOf } from "../federation/harness";

type Told = { message: string; fields: unknown }[];

/** A logger that keeps what it was told at warn and error level. */
function recordingLogger(): Logger & { readonly errors: Told; readonly warnings: Told } {
  const errors: Told = [];
  const warnings: Told = [];
  const none = () => {};
  return {
    debug: none,
    info: none,
    warn: (message, fields) => warnings.push({ message, fields }),
    error: (message, fields) => errors.push({ message, fields }),
    errors,
    warnings,
  };
}

const outage = () => new RelayError("REMOTE_RELAY_UNAVAILABLE", "The database does not answer.");

/** A harness whose tool-call store tells the size of each insert it is given. */
async function harnessCountingBatches() {
  const h = await createHarness();
  const batches: number[] = [];
  const record = h.stores.toolCalls.recordToolCalls.bind(h.stores.toolCalls);
  h.stores.toolCalls.recordToolCalls = async (calls) => {
    batches.push(calls.length);
    await record(calls);
  };
  return { h, batches };
}

describe("the agent's relay_tool calls in its conversation's activity (R-UI-02)", () => {
  it("R-UI-02: an ok call is kept with its action, the relay it named, the session and the result's summary", async () => {
    const h = await createHarness();
    const other = await h.ownerSession({ title: "Review" });
    const read = await h.ok({ action: "read_session", relay: "this", session: other.id });
    h.clock.advance(5_000);
    const relays = await h.ok({ action: "list_relays" });
    const detail = await h.engine.owner.getSession(h.caller.id);
    expect(detail.toolCalls).toEqual([
      {
        id: "call_000000000001",
        action: "read_session",
        relay: "desk",
        session: other.id,
        ok: true,
        code: null,
        summary: read.summary,
        at: T0,
      },
      {
        id: "call_000000000002",
        action: "list_relays",
        relay: "desk",
        session: null,
        ok: true,
        code: null,
        summary: relays.summary,
        at: T0 + 5_000,
      },
    ]);
    expect(OwnerSessionDetailSchema.parse(detail).toolCalls).toHaveLength(2);
    // Only the caller's activity holds them.
    expect((await h.engine.owner.getSession(other.id)).toolCalls).toEqual([]);
  });

  it("R-UI-02: a refused call is kept with its code and error; the relay as the call named it", async () => {
    const h = await createHarness();
    const missing = await h.call({ action: "read_session", relay: "DESK", session: "ses_missing" });
    const elsewhere = await h.call({ action: "list_sessions", relay: "build-box" });
    const { toolCalls } = await h.engine.owner.getSession(h.caller.id);
    expect(toolCalls).toMatchObject([
      {
        action: "read_session",
        relay: "desk",
        session: "ses_missing",
        ok: false,
        code: "REMOTE_RELAY_NOT_FOUND",
        summary: missing.error,
      },
      {
        action: "list_sessions",
        relay: "build-box",
        session: null,
        ok: false,
        code: "REMOTE_RELAY_NOT_FOUND",
        summary: elsewhere.error,
      },
    ]);
  });

  it("R-UI-02: a call that does not parse is kept too, as action unknown when it names none", async () => {
    const h = await createHarness();
    await h.call({});
    await h.call("read everything");
    await h.call({ action: "teleport", relay: "build-box", session: "ses_x" });
    await h.call({ action: "read_session", relay: "this" });
    const { toolCalls } = await h.engine.owner.getSession(h.caller.id);
    expect(
      toolCalls.map(({ action, relay, session, ok, code }) => ({ action, relay, session, ok, code })),
    ).toEqual([
      { action: "unknown", relay: "desk", session: null, ok: false, code: "REMOTE_RELAY_INVALID_INPUT" },
      { action: "unknown", relay: "desk", session: null, ok: false, code: "REMOTE_RELAY_INVALID_INPUT" },
      {
        action: "teleport",
        relay: "build-box",
        session: "ses_x",
        ok: false,
        code: "REMOTE_RELAY_INVALID_INPUT",
      },
      { action: "read_session", relay: "desk", session: null, ok: false, code: "REMOTE_RELAY_INVALID_INPUT" },
    ]);
    expect(toolCalls[0]?.summary).toContain("action is required");
  });

  it("R-UI-02: a long error is cut to 300 characters", async () => {
    const h = await createHarness();
    // The refusal of an unknown action lists all 23 actions.
    const result = await h.call({ action: "teleport" });
    expect(String(result.error).length).toBeGreaterThan(TOOL_CALL_SUMMARY_MAX_CHARS);
    const [call] = (await h.engine.owner.getSession(h.caller.id)).toolCalls;
    expect(call?.summary).toHaveLength(TOOL_CALL_SUMMARY_MAX_CHARS);
    expect(call?.summary).toBe(`${String(result.error).slice(0, TOOL_CALL_SUMMARY_MAX_CHARS - 1)}…`);
  });

  it("R-UI-02: the view shows the newest 200 calls, oldest first", async () => {
    const h = await createHarness();
    for (let i = 0; i < 205; i++) {
      await h.ok({ action: "usage", relay: "this" });
      h.clock.advance(1_000);
    }
    const { toolCalls } = await h.engine.owner.getSession(h.caller.id);
    expect(toolCalls).toHaveLength(200);
    expect(toolCalls[0]).toMatchObject({ id: "call_000000000006", at: T0 + 5_000 });
    expect(toolCalls.at(-1)).toMatchObject({ id: "call_000000000205", at: T0 + 204_000 });
  });

  it("R-UI-02: a call forwarded to a paired relay is kept by the caller's relay, naming that relay; the paired relay keeps none", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    const box = relayOf(fed, "build-box");
    await desk.pair(box);
    await desk.write("look at build-box");
    const listed = await desk.ok({ action: "list_sessions", relay: "build-box" });
    expect((await desk.engine.owner.getSession(desk.caller.id)).toolCalls).toMatchObject([
      { action: "list_sessions", relay: "build-box", session: null, ok: true, summary: listed.summary },
    ]);
    for (const session of await box.stores.sessions.listSessions({ scope: "all" })) {
      expect((await box.engine.owner.getSession(session.id)).toolCalls).toEqual([]);
    }
  });

  it("a failed write of the log is logged and the call's result stands", async () => {
    const logger = recordingLogger();
    const h = await createHarness({
      logger,
      engineStores: (stores) => withFailingMethod(stores, "toolCalls.recordToolCalls"),
    });
    const result = await h.call({ action: "usage", relay: "this" });
    expect(result).toMatchObject({ ok: true, relay: "desk" });
    // The owner's view waits for the lines on their way; this one failed and is logged.
    expect((await h.engine.owner.getSession(h.caller.id)).toolCalls).toEqual([]);
    expect(logger.errors).toEqual([
      {
        message: "Recording relay_tool calls in the activity log failed.",
        fields: expect.objectContaining({ calls: [`${h.caller.id} usage`] }),
      },
    ]);
  });

  it("lines a database cut kept from their insert are written once it answers, in their order, each once", async () => {
    const logger = recordingLogger();
    let down = false;
    const h = await createHarness({
      logger,
      engineStores: (stores) =>
        withFailingMethod(stores, "toolCalls.recordToolCalls", { failing: () => down, error: outage }),
    });
    down = true;
    await h.ok({ action: "usage", relay: "this" });
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS);
    await h.ok({ action: "relay_info", relay: "this" });
    await h.clock.advanceAsync(RETRY_FIRST_MS);
    expect(await h.stores.toolCalls.listToolCalls(h.caller.id, { limit: 10 })).toEqual([]);
    down = false;
    // The next retry (twice the first wait) takes both, the older first.
    await h.clock.advanceAsync(2 * RETRY_FIRST_MS);
    const kept = await h.stores.toolCalls.listToolCalls(h.caller.id, { limit: 10 });
    expect(kept.map((line) => line.action).sort()).toEqual(["relay_info", "usage"]);
    expect((await h.engine.owner.getSession(h.caller.id)).toolCalls.map((call) => call.action)).toEqual([
      "usage",
      "relay_info",
    ]);
    expect(logger.errors).toEqual([]);
    expect(logger.warnings).toMatchObject([
      { message: "The database does not answer; the activity log's lines wait for it." },
    ]);
  });

  it("lines whose insert landed while its answer was lost to a cut are kept once when the retry writes them again", async () => {
    // The 90-minute soak: the retry met the rows the lost answer had written (duplicate key).
    const logger = recordingLogger();
    const h = await createHarness({ logger });
    const record = h.stores.toolCalls.recordToolCalls.bind(h.stores.toolCalls);
    let answerLost = true;
    h.stores.toolCalls.recordToolCalls = async (calls) => {
      await record(calls);
      if (answerLost) {
        answerLost = false;
        throw outage();
      }
    };
    await h.ok({ action: "usage", relay: "this" });
    await h.ok({ action: "relay_info", relay: "this" });
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS);
    await h.clock.advanceAsync(RETRY_FIRST_MS);
    const kept = await h.stores.toolCalls.listToolCalls(h.caller.id, { limit: 10 });
    expect(kept.map((line) => line.action)).toEqual(["usage", "relay_info"]);
    expect(logger.errors).toEqual([]);
  });

  it("an engine closed while lines wait for the database names them as lost and leaves no retry behind", async () => {
    const logger = recordingLogger();
    const attempts: number[] = [];
    const h = await createHarness({ logger });
    h.stores.toolCalls.recordToolCalls = async (calls) => {
      attempts.push(calls.length);
      throw outage();
    };
    await h.ok({ action: "usage", relay: "this" });
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS);
    expect(attempts).toEqual([1]);
    await h.engine.close();
    expect(attempts).toEqual([1, 1]);
    expect(logger.errors).toEqual([
      {
        message: "The activity log lost lines: the relay closed while the database did not answer.",
        fields: { calls: [`${h.caller.id} usage`] },
      },
    ]);
    await h.clock.advanceAsync(60_000);
    expect(attempts).toEqual([1, 1]);
  });

  it(`a cut holds at most ${TOOL_CALL_HELD_MAX} lines: past that the oldest go, named in the log`, async () => {
    const logger = recordingLogger();
    let down = true;
    const written: string[] = [];
    const h = await createHarness({ logger });
    h.stores.toolCalls.recordToolCalls = async (calls) => {
      if (down) {
        throw outage();
      }
      written.push(...calls.map((call) => call.id));
    };
    const writer = createToolCallWriter({ clock: h.clock });
    const line = (n: number): ToolCallRecord => ({
      id: `call_${n}`,
      sessionId: h.caller.id,
      action: "usage",
      relay: "desk",
      targetSession: null,
      ok: true,
      code: null,
      summary: "",
      createdAt: T0,
    });
    for (let n = 1; n <= TOOL_CALL_HELD_MAX; n++) {
      writer.add(h.deps, line(n));
    }
    await writer.settled();
    expect(logger.errors).toEqual([]);
    writer.add(h.deps, line(TOOL_CALL_HELD_MAX + 1));
    expect(logger.errors).toEqual([
      {
        message: "The activity log lost lines a database outage kept too long.",
        fields: { calls: [`${h.caller.id} usage`] },
      },
    ]);
    down = false;
    await writer.settled();
    expect(written).toHaveLength(TOOL_CALL_HELD_MAX);
    expect(written[0]).toBe("call_2");
    expect(written.at(-1)).toBe(`call_${TOOL_CALL_HELD_MAX + 1}`);
  });

  it("calls made together are written in one batch, and the call does not wait for its line", async () => {
    const { h, batches } = await harnessCountingBatches();
    await Promise.all(Array.from({ length: 5 }, () => h.call({ action: "relay_info", relay: "this" })));
    const { toolCalls } = await h.engine.owner.getSession(h.caller.id);
    expect(toolCalls.map((call) => call.action)).toEqual(Array(5).fill("relay_info"));
    // They came within one window: one insert, written when the owner's view asked for them.
    expect(batches).toEqual([5]);
  });

  it("the lines of a window share one insert, written at the window's end, or at once past 200 (issue 29)", async () => {
    const { h, batches } = await harnessCountingBatches();
    for (let n = 0; n < 10; n++) {
      await h.call({ action: "relay_info", relay: "this" });
    }
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS - 1);
    expect(batches).toEqual([]);
    await h.clock.advanceAsync(1);
    expect(batches).toEqual([10]);

    for (let n = 0; n < TOOL_CALL_BATCH_MAX + 1; n++) {
      await h.call({ action: "relay_info", relay: "this" });
    }
    await settle();
    expect(batches).toEqual([10, TOOL_CALL_BATCH_MAX]);
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS);
    expect(batches).toEqual([10, TOOL_CALL_BATCH_MAX, 1]);
  });

  it("a call the database did not answer is not kept (the write would wait out the same outage)", async () => {
    let down = false;
    const h = await createHarness({
      engineStores: (stores) =>
        withFailingMethod(stores, "reads.listSessions", {
          failing: () => down,
          error: outage,
        }),
    });
    down = true;
    expect(await h.call({ action: "list_sessions", relay: "this" })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_UNAVAILABLE",
    });
    down = false;
    expect((await h.engine.owner.getSession(h.caller.id)).toolCalls).toEqual([]);
  });

  it("an unknown caller's call leaves nothing; deleting a session deletes its log", async () => {
    const h = await createHarness();
    await h.callAs("ses_ghost", { action: "list_relays" });
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS);
    expect(await h.stores.toolCalls.listToolCalls("ses_ghost", { limit: 10 })).toEqual([]);
    await h.ok({ action: "usage", relay: "this" });
    // The line is written beside the call, within its window: read from the store once it is (the
    // owner's view writes what is queued first).
    await h.clock.advanceAsync(TOOL_CALL_WINDOW_MS);
    expect(await h.stores.toolCalls.listToolCalls(h.caller.id, { limit: 10 })).toHaveLength(1);
    await h.engine.owner.deleteSession(h.caller.id);
    expect(await h.stores.toolCalls.listToolCalls(h.caller.id, { limit: 10 })).toEqual([]);
  });
});

describe("clip", () => {
  it("keeps short text, cuts long text with an ellipsis, never half a surrogate pair, drops NUL", () => {
    expect(clip("short", 10)).toBe("short");
    expect(clip("abcdefghij", 10)).toBe("abcdefghij");
    expect(clip("abcdefghijk", 10)).toBe("abcdefghi…");
    expect(clip("abcdefgh🛰️xyz", 10)).toBe("abcdefgh…");
    expect(clip("a\u0000b", 10)).toBe("ab");
  });
});
