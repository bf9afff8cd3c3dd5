import { EVENT_MESSAGE_HEADER } from "@oar/scheduler";
import { describe, expect, it } from "vitest";
import { createTestProvider, withFailingMethod } from "../../src/testing";
import { settle } from "../actions/harness";
import { createWatchingHarness } from "./watching-harness";

const WINDOW_MS = 30_000;
const MIN = 60_000;

describe("how events arrive (§27)", () => {
  it("R-DLV-01, R-DLV-02, R-DLV-04: two turn ends 10 s apart wake an idle watcher once, with one grouped message", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "Review: server/" });
    const b = await h.ownerSession({ title: "Review: web/" });
    await h.subscribe({ sessions: [a.id, b.id], events: ["turn_end"] });
    await h.prompt(a, "first");
    await h.pass(10_000);
    await h.prompt(b, "second");
    await h.pass(WINDOW_MS - 10_001);
    expect(await h.eventMessages()).toEqual([]);
    await h.pass(1);
    const [message, ...rest] = await h.eventMessages();
    expect(rest).toEqual([]);
    expect(message?.text.split("\n")).toEqual([
      EVENT_MESSAGE_HEADER,
      `[relay event] session "Review: server/" (${a.id}): turn_end (done) "echo: first"`,
      `[relay event] session "Review: web/" (${b.id}): turn_end (done) "echo: second"`,
    ]);
    // It started a turn of the watcher, which is not one of the owner's messages.
    expect(message?.role).toBe("relay");
    const prompts = h.provider.prompts.filter((p) => p.sessionId === h.caller.id);
    expect(prompts.map((p) => p.prompt)).toEqual([message?.text]);
  });

  it("R-DLV-06, Grouping: an error goes at once and takes what the window held with it", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "A" });
    await h.subscribe({ sessions: [a.id] });
    await h.prompt(a, "fine");
    await h.pass(5_000);
    expect(await h.eventMessages()).toEqual([]);
    await h.prompt(a, "fail: boom");
    const [message] = await h.eventMessages();
    expect(message?.text).toContain('turn_end (done) "echo: fine"');
    expect(message?.text).toContain('error "boom"');
  });

  it("DESIGN §9: a send that keeps failing holds no routing back; once it works, the error goes out once", async () => {
    let failing = true;
    const h = await createWatchingHarness({
      engineStores: (stores) =>
        withFailingMethod(stores, "deliveries.recordWakeups", { failing: () => failing }),
    });
    const a = await h.ownerSession({ title: "A" });
    await h.subscribe({ sessions: [a.id] });
    await h.prompt(a, "fail: boom");
    // The pass that routes and sends at once fails; the next routes alone, and the error is stored.
    await h.pass(2_000);
    expect(await h.stores.deliveries.nextDeliveryDueAt()).not.toBeNull();
    expect(await h.eventMessages()).toEqual([]);
    failing = false;
    await h.pass(2_000);
    const messages = await h.eventMessages();
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toContain('error "boom"');
  });

  it("GAP-15: a watcher mid-turn gets the message as its next turn, once the current one ends", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
    const running = await h.provider.nextTurn();
    h.provider.hold(false);
    await h.prompt(a, "fail: now");
    expect(await h.eventMessages()).toHaveLength(1);
    expect(h.provider.prompts.filter((p) => p.sessionId === h.caller.id)).toHaveLength(1);
    running.finish();
    await h.flow();
    const prompts = h.provider.prompts.filter((p) => p.sessionId === h.caller.id).map((p) => p.prompt);
    expect(prompts[1]).toContain('error "now"');
  });

  it("an external watcher gets the message appended, and no turn starts (DESIGN §5)", async () => {
    const h = await createWatchingHarness({
      extraProviders: [createTestProvider({ info: { id: "ext", drivenFromOutside: true } })],
    });
    const watcher = await h.ownerSession({ provider: "ext" });
    const target = await h.ownerSession();
    await h.subscribe({ sessions: [target.id], events: ["error"] }, watcher.id);
    await h.prompt(target, "fail: x");
    const [message] = await h.eventMessages(watcher.id);
    expect(message).toMatchObject({ role: "relay", turnId: null });
    expect(await h.stores.sessions.listActiveTurns({ sessionId: watcher.id })).toEqual([]);
  });

  it("R-SUB-09, R-SLIFE-02(c): once ends when it fires", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const id = await h.subscribe({ sessions: [a.id], once: true });
    await h.prompt(a);
    await h.prompt(a);
    await h.pass(WINDOW_MS);
    const messages = await h.eventMessages();
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text.match(/turn_end/g)).toHaveLength(1);
    const listed = await h.ok({ action: "list_subscriptions" });
    expect(listed.subscriptions).toEqual([expect.objectContaining({ id, active: false, endReason: "once" })]);
  });

  it("events not named, sessions not watched and match misses wake nobody", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const b = await h.ownerSession();
    await h.subscribe({ sessions: [a.id], events: ["error"] });
    await h.subscribe({ sessions: [a.id], match: "needle" });
    await h.prompt(a, "hay");
    await h.prompt(b, "fail: elsewhere");
    await h.pass(WINDOW_MS);
    expect(await h.eventMessages()).toEqual([]);
    await h.prompt(a, "a needle here");
    await h.pass(WINDOW_MS);
    expect((await h.eventMessages())[0]?.text).toContain("a needle here");
  });
});

describe("no echo of the watcher's own prompts (§25)", () => {
  it("R-ECHO-01: a reply the watcher got through send does not wake it again", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    const sent = await h.ok({
      action: "send",
      relay: "this",
      session: a.id,
      text: "do it",
      wait_seconds: 30,
    });
    expect(sent).toMatchObject({ status: "done" });
    await h.pass(WINDOW_MS + 5_000);
    // all_idle (a default event) still comes; the turn_end does not.
    const texts = (await h.eventMessages()).map((m) => m.text).join("\n");
    expect(texts).toContain("all_idle");
    expect(texts).not.toContain("turn_end");
  });

  it("R-ECHO-03: errors of that turn still arrive", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    await h.ok({ action: "send", relay: "this", session: a.id, text: "fail: bad", wait_seconds: 30 });
    await h.pass(WINDOW_MS + 5_000);
    const [message] = await h.eventMessages();
    expect(message?.text).toContain('error "bad"');
    expect(message?.text).not.toContain("turn_end");
  });

  it("R-ECHO-04: a prompt it did not wait for wakes it with turn_end", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    await h.ok({ action: "send", relay: "this", session: a.id, text: "later", wait_seconds: 0 });
    await h.pass(WINDOW_MS + 5_000);
    expect((await h.eventMessages())[0]?.text).toContain('turn_end (done) "echo: later"');
  });

  it("GAP-12: a turn_end whose wait timed out arrives when the turn ends", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    h.provider.hold();
    const sent = h.ok({ action: "send", relay: "this", session: a.id, text: "hold", wait_seconds: 5 });
    await settle();
    const turn = await h.provider.nextTurn();
    await h.clock.advanceAsync(5_000);
    expect(await sent).toMatchObject({ status: "running" });
    turn.finish("late reply");
    await h.pass(WINDOW_MS + 5_000);
    expect((await h.eventMessages())[0]?.text).toContain('"late reply"');
  });
});

describe("fewer wake-ups (§24)", () => {
  it("R-FEW-04/05, R-LSUB-05: a digest holds events and sends them together every N minutes", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "A" });
    const id = await h.subscribe({ sessions: [a.id], digest_minutes: 30, events: ["turn_end", "error"] });
    for (const text of ["one", "two", "three"]) {
      await h.prompt(a, text);
      await h.pass(MIN);
    }
    expect(await h.eventMessages()).toEqual([]);
    const listed = await h.ok({ action: "list_subscriptions" });
    expect(listed.subscriptions).toEqual([
      expect.objectContaining({
        id,
        heldCount: 3,
        nextDeliveryAt: new Date(h.caller.createdAt + 30 * MIN).toISOString(),
      }),
    ]);
    await h.pass(27 * MIN);
    const [digest] = await h.eventMessages();
    expect(digest?.text.split("\n")[1]).toBe(
      `Digest of 3 events (subscription ${id} every 30 min; questions and errors come at once):`,
    );
    // Errors never wait for the digest (R-FEW-02).
    await h.prompt(a, "fail: now");
    expect(await h.eventMessages()).toHaveLength(2);
  });

  it("R-FEW-09: quiet hours hold events to the window's end, with the line that says so", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    // The harness starts at 00:00 UTC.
    await h.subscribe({
      sessions: [a.id],
      events: ["turn_end"],
      quiet_hours: { from: "23:00", to: "06:00", tz: "UTC" },
    });
    await h.prompt(a, "night work");
    await h.jump(5 * 60 * MIN);
    expect(await h.eventMessages()).toEqual([]);
    await h.jump(60 * MIN);
    const [held] = await h.eventMessages();
    expect(held?.text.split("\n")[1]).toBe(
      "Held during quiet hours (23:00–06:00 UTC): 1 event, delivered now that the window has ended; questions and errors came at once",
    );
  });

  it("R-DLV-05: past 20 wake-ups an hour the rest comes as a digest every 10 minutes; errors still at once", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    for (let i = 0; i < 20; i++) {
      await h.prompt(a, `turn ${i}`);
      await h.pass(WINDOW_MS);
    }
    expect(await h.eventMessages()).toHaveLength(20);
    await h.prompt(a, "turn 21");
    await h.pass(WINDOW_MS);
    expect(await h.eventMessages()).toHaveLength(20);
    await h.prompt(a, "fail: urgent");
    expect(await h.eventMessages()).toHaveLength(21);
    await h.pass(10 * MIN);
    const messages = await h.eventMessages();
    expect(messages).toHaveLength(22);
    expect(messages[21]?.text).toContain("turn 21");
  });

  it("R-FEW-18: all watches every session but the excluded and the own", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const x = await h.ownerSession();
    await h.subscribe({ sessions: ["all"], exclude: [x.id] });
    await h.prompt(x, "excluded");
    await h.prompt(a, "included");
    await h.pass(WINDOW_MS);
    const [message] = await h.eventMessages();
    expect(message?.text).toContain("included");
    expect(message?.text).not.toContain("excluded");
  });
});

describe("lifetime (§32) and the derived events (GAP-13/14)", () => {
  it("GAP-17: archiving one watched session removes it; archiving the last ends the subscription", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const b = await h.ownerSession();
    const id = await h.subscribe({ sessions: [a.id, b.id] });
    await h.ok({ action: "archive", relay: "this", session: a.id });
    let [entry] = (await h.ok({ action: "list_subscriptions" })).subscriptions as Record<string, unknown>[];
    expect(entry).toMatchObject({ id, active: true, sessions: [{ id: b.id }] });
    await h.engine.owner.archiveSession(b.id);
    [entry] = (await h.ok({ action: "list_subscriptions" })).subscriptions as Record<string, unknown>[];
    expect(entry).toMatchObject({ id, active: false, endReason: "archived" });
  });

  it("R-SLIFE-02(b): the watcher archived ends its subscriptions", async () => {
    const h = await createWatchingHarness();
    const watcher = await h.ownerSession();
    const a = await h.ownerSession();
    const id = await h.subscribe({ sessions: ["all"] }, watcher.id);
    await h.engine.owner.archiveSession(watcher.id);
    expect(await h.stores.subscriptions.getSubscription(id)).toMatchObject({ endReason: "watcher_archived" });
    void a;
  });

  it("all_idle: when no watched session runs anything any more", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const b = await h.ownerSession();
    const id = await h.subscribe({ sessions: [a.id, b.id], events: ["all_idle"] });
    h.provider.hold();
    await h.engine.owner.postMessage(a.id, "hold");
    await h.engine.owner.postMessage(b.id, "hold");
    await settle();
    const first = await h.provider.nextTurn();
    const second = await h.provider.nextTurn();
    first.finish();
    await h.pass(WINDOW_MS);
    expect(await h.eventMessages()).toEqual([]);
    second.finish();
    await h.pass(WINDOW_MS);
    const [message] = await h.eventMessages();
    expect(message?.text).toContain(
      `[relay event] all_idle: no turn or task is running in the 2 watched sessions (subscription ${id})`,
    );
  });

  it("stalled: a turn running stalled_minutes without ending", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "Slow" });
    await h.subscribe({ sessions: [a.id], stalled_minutes: 5 });
    h.provider.hold();
    await h.engine.owner.postMessage(a.id, "hold");
    await h.flow();
    await h.pass(5 * MIN);
    await h.pass(WINDOW_MS);
    const [message] = await h.eventMessages();
    expect(message?.text).toContain(`session "Slow" (${a.id}): stalled: no output for 5 min`);
  });

  it("GAP-13: output restarts the stall clock; a second silence as long is a second stalled event", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "Chatty" });
    await h.subscribe({ sessions: [a.id], stalled_minutes: 5 });
    h.provider.hold();
    await h.engine.owner.postMessage(a.id, "hold");
    await h.flow();
    const turn = await h.provider.nextTurn();
    // Output at +4 min: no stall at +5; the clock restarts at +4.
    await h.pass(4 * MIN);
    turn.write("still working");
    await h.pass(MIN + WINDOW_MS);
    expect(await h.eventMessages()).toEqual([]);
    // Silent from +4: stalled at +9 (checked within a minute).
    await h.pass(4 * MIN);
    await h.pass(MIN + WINDOW_MS);
    const stalls = async () =>
      (await h.eventMessages()).flatMap((message) =>
        message.text.split("\n").filter((line) => line.includes("stalled: no output for 5 min")),
      );
    expect(await stalls()).toHaveLength(1);
    // Still silent: no second event for the same silence.
    await h.pass(3 * MIN);
    expect(await stalls()).toHaveLength(1);
    // Output again, then 5 silent minutes: a second stall.
    turn.write("more");
    await h.pass(5 * MIN);
    await h.pass(MIN + WINDOW_MS);
    expect(await stalls()).toHaveLength(2);
    turn.finish();
    await h.flow();
  });

  it("GAP-14: a heartbeat every N minutes lists the watched sessions and their states", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "A" });
    // A quiet relay: the dispatcher has armed for nothing before the subscription comes.
    await h.flow();
    await h.subscribe({ sessions: [a.id], heartbeat_minutes: 60 });
    await h.pass(60 * MIN);
    await h.pass(WINDOW_MS);
    const [message] = await h.eventMessages();
    expect(message?.text).toContain(`: 1 watched session: "A" (${a.id}) idle`);
  });
});

describe("the owner's view (R-UI-06, R-UI-07)", () => {
  it("watched and watching", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const b = await h.ownerSession();
    await h.subscribe({ sessions: [a.id, b.id] });
    await h.subscribe({ sessions: [a.id] });
    const views = await h.engine.owner.listSessions();
    const view = (id: string) => views.find((v) => v.id === id);
    expect(view(a.id)).toMatchObject({ watched: true, watching: 0 });
    expect(view(h.caller.id)).toMatchObject({ watched: false, watching: 2 });
  });

  it("event turns do not reset the anti-loop count (they are not the owner's messages)", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    await h.subscribe({ sessions: [a.id] });
    await h.ok({ action: "send", relay: "this", session: a.id, text: "x", wait_seconds: 0 });
    const before = await h.stores.loopCounters.getLoopCounter(h.caller.id);
    await h.prompt(a, "fail: wake");
    await h.flow();
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(before);
  });
});
