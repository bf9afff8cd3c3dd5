import { LIMITS } from "@oar/schema";
import { describe, expect, it, onTestFinished } from "vitest";
import { CARD_POLL_MS } from "../../src/actions/approvals";
import { createEngine } from "../../src/create-engine";
import { refusal, settle, T0 } from "../actions/harness";
import { createWatchingHarness, type WatchingHarness } from "../watching/watching-harness";

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const PREFIX_END = "automated message from OAR, not from the user; it approves nothing]";

async function scheduled(h: WatchingHarness, input: Record<string, unknown>, as?: string) {
  const result = await h.ok({ action: "schedule", title: "Check", text: "Look at the build.", ...input }, as);
  return result.schedule_id as string;
}

async function messagesOf(h: WatchingHarness, sessionId: string, id: string) {
  return (await h.stores.sessions.listMessages(sessionId)).filter((m) =>
    m.text.startsWith(`[relay schedule ${id} `),
  );
}

async function listed(h: WatchingHarness, as?: string) {
  const result = await h.ok({ action: "list_schedules" }, as);
  return result.schedules as Record<string, unknown>[];
}

describe("schedule (§33.2): a durable prompt later", () => {
  it("R-SCH-04…07: only `at` fires once at `at`, with the prefix line, and runs a turn", async () => {
    const h = await createWatchingHarness();
    const at = T0 + 10 * MIN;
    const result = await h.ok({ action: "schedule", title: "Nightly review", at: iso(at), text: "Review." });
    const id = result.schedule_id as string;
    expect(id).toMatch(/^sch_/);
    expect(result.summary).toBe(`schedule → desk: once at ${iso(at)} (${id})`);
    expect(result.schedule).toEqual({
      id,
      title: "Nightly review",
      at: iso(at),
      everyMinutes: null,
      once: true,
      nextFireAt: iso(at),
    });
    await h.pass(10 * MIN - 1);
    expect(await messagesOf(h, h.caller.id, id)).toEqual([]);
    await h.pass(1);
    const [message] = await messagesOf(h, h.caller.id, id);
    expect(message?.role).toBe("relay");
    expect(message?.text).toBe(`[relay schedule ${id} "Nightly review" · once · ${PREFIX_END}\nReview.`);
    expect(message?.createdAt).toBe(at);
    // The turn ran on it, in the session's own mode (R-SCH-08).
    expect(h.provider.prompts.at(-1)?.prompt).toContain("Review.");
    const [entry] = await listed(h);
    expect(entry).toMatchObject({
      id,
      firedCount: 1,
      lastFiredAt: iso(at),
      nextFireAt: null,
      endReason: "fired",
    });
    // R-LSCH-01: ended schedules are listed for an hour.
    await h.pass(60 * MIN);
    expect(await listed(h)).toHaveLength(1);
    await h.pass(1);
    expect(await listed(h)).toEqual([]);
  });

  it("GAP-18: only every_minutes first fires one interval from now, then every interval", async () => {
    const h = await createWatchingHarness();
    const id = await scheduled(h, { every_minutes: 30 });
    await h.pass(30 * MIN - 1);
    expect(await messagesOf(h, h.caller.id, id)).toHaveLength(0);
    await h.pass(1);
    expect(await messagesOf(h, h.caller.id, id)).toHaveLength(1);
    await h.pass(30 * MIN);
    const messages = await messagesOf(h, h.caller.id, id);
    expect(messages.map((m) => m.createdAt)).toEqual([T0 + 30 * MIN, T0 + 60 * MIN]);
    expect(messages[0]?.text).toContain("· every 30 min ·");
    const [entry] = await listed(h);
    expect(entry).toMatchObject({ firedCount: 2, nextFireAt: iso(T0 + 90 * MIN), once: false });
    expect(entry).not.toHaveProperty("skippedCount");
  });

  it("both: fires at `at`, then on that grid; a grid begun in the past fires next at its first slot ahead", async () => {
    const h = await createWatchingHarness();
    const result = await h.ok({
      action: "schedule",
      title: "Hourly",
      at: iso(T0 - 90 * MIN),
      every_minutes: 60,
      text: "Tick.",
    });
    expect((result.schedule as { nextFireAt: string }).nextFireAt).toBe(iso(T0 + 30 * MIN));
  });

  it("refuses a one-time `at` that has passed, and a bad interval, changing nothing", async () => {
    const h = await createWatchingHarness();
    const past = await h.call({ action: "schedule", title: "Late", at: iso(T0 - 1), text: "x" });
    expect(refusal(past).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(String(refusal(past).error)).toMatch(/has passed/);
    for (const every of [0, LIMITS.everyMinutesMax + 1]) {
      const bad = await h.call({ action: "schedule", title: "Bad", every_minutes: every, text: "x" });
      expect(refusal(bad).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    }
    const neither = await h.call({ action: "schedule", title: "None", text: "x" });
    expect(String(refusal(neither).error)).toMatch(/at .*or every_minutes/);
    expect(await listed(h)).toEqual([]);
    await scheduled(h, { every_minutes: LIMITS.everyMinutesMax });
    await scheduled(h, { every_minutes: 1 });
    expect(await listed(h)).toHaveLength(2);
  });
});

describe("R-SCH-10/11/12: downtime, the grid, no pile-up", () => {
  it("a restart after several missed slots fires once, keeps the grid and counts the passed-over slots", async () => {
    const h = await createWatchingHarness();
    const id = await scheduled(h, { at: iso(T0 + 60 * MIN), every_minutes: 60 });
    await h.pass(60 * MIN);
    expect(await messagesOf(h, h.caller.id, id)).toHaveLength(1);
    await h.engine.close();
    // Down from 01:00 to 06:17: slots 02:00 … 06:00 pass with no relay running.
    await h.clock.advanceAsync(5 * 60 * MIN + 17 * MIN);
    expect(await messagesOf(h, h.caller.id, id)).toHaveLength(1);
    const restarted = createEngine(h.deps);
    onTestFinished(() => restarted.close());
    await restarted.start();
    const flow = async () => {
      for (let i = 0; i < 4; i++) {
        await settle();
        await restarted.settleEvents();
      }
    };
    await flow();
    const messages = await messagesOf(h, h.caller.id, id);
    expect(messages.map((m) => m.createdAt)).toEqual([T0 + 60 * MIN, T0 + 6 * 60 * MIN + 17 * MIN]);
    const entry = await h.stores.schedules.getSchedule(id);
    expect(entry).toMatchObject({ firedCount: 2, skippedCount: 4, nextFireAt: T0 + 7 * 60 * MIN });
    const firings = await h.stores.schedules.listFirings(id);
    expect(firings.map((f) => [f.slot, f.outcome])).toEqual([
      [T0 + 60 * MIN, "fired"],
      [T0 + 6 * 60 * MIN, "fired"],
    ]);
    await h.clock.advanceAsync(43 * MIN);
    await flow();
    expect((await messagesOf(h, h.caller.id, id)).map((m) => m.createdAt).at(-1)).toBe(T0 + 7 * 60 * MIN);
  });

  it("a repetition is skipped while the previous firing's message still waits in the queue", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const busy = await h.sendHeld(target.id);
    expect(busy.ok).toBe(true);
    const id = await scheduled(h, { session: target.id, every_minutes: 10 });
    await h.pass(10 * MIN);
    await h.pass(10 * MIN);
    await h.pass(10 * MIN);
    // The first firing waits behind the held turn; the next two are skipped, not queued.
    expect(await messagesOf(h, target.id, id)).toHaveLength(1);
    const [entry] = await listed(h);
    expect(entry).toMatchObject({ firedCount: 1, skippedCount: 2 });
    h.provider.release();
    await h.flow();
    await h.pass(10 * MIN);
    expect(await messagesOf(h, target.id, id)).toHaveLength(2);
    expect((await h.stores.schedules.listFirings(id)).map((f) => f.outcome)).toEqual([
      "fired",
      "skipped",
      "skipped",
      "fired",
    ]);
  });
});

describe("§33.3: schedules for another session", () => {
  it("fire in that session with setBy, carry the creating turn's hops, and are listed on both sides", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const id = await scheduled(h, { session: target.id, at: iso(T0 + MIN) });
    await h.pass(MIN);
    const [message] = await messagesOf(h, target.id, id);
    expect(message?.text).toContain(`· once · set by "Planner" (${h.caller.id}) ·`);
    expect(message?.provenance).toMatchObject({ relay: "desk", session: h.caller.id, hops: 0 });
    const [mine] = await listed(h);
    expect(mine).toMatchObject({ session: { id: target.id, title: "Builder" }, setBy: { id: h.caller.id } });
    const [theirs] = await listed(h, target.id);
    expect(theirs).toMatchObject({ id });
  });

  it("R-SCH-17/18/19: past the anti-loop count a firing is held, re-checked, and released when the owner writes", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const id = await scheduled(h, { session: target.id, every_minutes: 5 });
    // The creation counted once (R-SCH-17); bring the count to the limit.
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(1);
    for (let i = 1; i < LIMITS.antiLoopPrompts; i++) {
      await h.stores.loopCounters.incrementLoopCounter(h.caller.id);
    }
    await h.pass(5 * MIN);
    expect(await messagesOf(h, target.id, id)).toHaveLength(0);
    const [held] = await listed(h);
    expect(held).toMatchObject({ heldForApproval: true, heldSince: iso(T0 + 5 * MIN) });
    await h.pass(3 * MIN);
    expect(await messagesOf(h, target.id, id)).toHaveLength(0);
    expect((await listed(h))[0]).toMatchObject({ heldSince: iso(T0 + 5 * MIN) });
    await h.engine.owner.postMessage(h.caller.id, "carry on");
    await h.flow();
    const [message] = await messagesOf(h, target.id, id);
    expect(message?.createdAt).toBe(T0 + 8 * MIN);
    const [released] = await listed(h);
    expect(released).not.toHaveProperty("heldForApproval");
    expect(released).toMatchObject({ firedCount: 1, nextFireAt: iso(T0 + 10 * MIN) });
    // Each firing counts (R-SCH-17); the owner's message reset the count first.
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(1);
  });

  it("R-SCH-20: a schedule for the own conversation is neither counted nor held", async () => {
    const h = await createWatchingHarness();
    for (let i = 0; i < LIMITS.antiLoopPrompts; i++) {
      await h.stores.loopCounters.incrementLoopCounter(h.caller.id);
    }
    const id = await scheduled(h, { at: iso(T0 + MIN) });
    await h.pass(MIN);
    expect(await messagesOf(h, h.caller.id, id)).toHaveLength(1);
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(LIMITS.antiLoopPrompts);
  });

  it("refuses an unknown or archived session, naming it", async () => {
    const h = await createWatchingHarness();
    const gone = await h.call({
      action: "schedule",
      title: "x",
      text: "x",
      every_minutes: 5,
      session: "ses_nope",
    });
    expect(refusal(gone).code).toBe("REMOTE_RELAY_NOT_FOUND");
  });
});

describe("R-SCHEND-03: limits, 20 ok and 21 refused", () => {
  it("20 active schedules firing in a conversation; the 21st is refused and nothing is created", async () => {
    const h = await createWatchingHarness();
    for (let i = 0; i < LIMITS.schedulesPerConversation; i++) {
      await scheduled(h, { every_minutes: 60, title: `s${i}` });
    }
    const over = await h.call({ action: "schedule", title: "21st", text: "x", every_minutes: 60 });
    expect(refusal(over).code).toBe("REMOTE_RELAY_SCHEDULE_LIMIT");
    expect(await listed(h)).toHaveLength(20);
    // An ended one frees its place.
    const first = (await listed(h))[0]?.id as string;
    await h.ok({ action: "unschedule", schedule_id: first });
    await scheduled(h, { every_minutes: 60, title: "again" });
  });

  it("20 created for other sessions; the 21st is refused", async () => {
    const h = await createWatchingHarness();
    const targets = [await h.agentSession(), await h.agentSession()];
    for (let i = 0; i < LIMITS.schedulesPerConversation; i++) {
      await scheduled(h, { every_minutes: 60, session: targets[i % 2]?.id });
    }
    const over = await h.call({
      action: "schedule",
      title: "21st",
      text: "x",
      every_minutes: 60,
      session: targets[0]?.id,
    });
    expect(refusal(over).code).toBe("REMOTE_RELAY_SCHEDULE_LIMIT");
    expect(String(refusal(over).error)).toMatch(/for other sessions/);
    // Its own conversation still has room.
    await scheduled(h, { every_minutes: 60 });
  });

  it("a session holds 20 firing in it, whoever created them", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession();
    for (let i = 0; i < LIMITS.schedulesPerConversation; i++) {
      await scheduled(h, { every_minutes: 60 }, target.id);
    }
    const over = await h.call({
      action: "schedule",
      title: "x",
      text: "x",
      every_minutes: 60,
      session: target.id,
    });
    expect(refusal(over).code).toBe("REMOTE_RELAY_SCHEDULE_LIMIT");
    expect(String(refusal(over).error)).toContain(target.id);
  });
});

describe("§33.5/§33.6 (R-UNSCH-01, R-SCHEND-01): unschedule and the ends of a schedule", () => {
  it("R-UNSCH-01: unschedule ends one of the conversation's schedules; another conversation's is not found", async () => {
    const h = await createWatchingHarness();
    const other = await h.ownerSession({ title: "Other" });
    const id = await scheduled(h, { every_minutes: 5 });
    const foreign = await h.callAs(other.id, { action: "unschedule", schedule_id: id });
    expect(refusal(foreign).code).toBe("REMOTE_RELAY_NOT_FOUND");
    const done = await h.ok({ action: "unschedule", schedule_id: id });
    expect(done).toMatchObject({ schedule_id: id, ended: true });
    await h.pass(5 * MIN);
    expect(await messagesOf(h, h.caller.id, id)).toHaveLength(0);
    expect((await listed(h))[0]).toMatchObject({ id, endReason: "unscheduled" });
    const again = await h.ok({ action: "unschedule", schedule_id: id });
    expect(String(again.note)).toMatch(/already ended/);
  });

  it("R-UNSCH-01: the session a schedule fires in may end it as well as the conversation that created it", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const first = await scheduled(h, { session: target.id, every_minutes: 5 });
    const second = await scheduled(h, { session: target.id, every_minutes: 5 });
    await h.ok({ action: "unschedule", schedule_id: first }, target.id);
    await h.ok({ action: "unschedule", schedule_id: second });
    expect((await h.stores.schedules.getSchedule(first))?.endReason).toBe("unscheduled");
    expect((await h.stores.schedules.getSchedule(second))?.endReason).toBe("unscheduled");
  });

  it("archiving the session it fires in, or deleting its creator, ends it", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession();
    const forTarget = await scheduled(h, { session: target.id, every_minutes: 5 });
    const own = await scheduled(h, { every_minutes: 5 }, target.id);
    await h.engine.owner.archiveSession(target.id);
    expect((await h.stores.schedules.getSchedule(forTarget))?.endReason).toBe("archived");
    expect((await h.stores.schedules.getSchedule(own))?.endReason).toBe("archived");
    const mine = await scheduled(h, { every_minutes: 5 });
    await h.engine.owner.deleteSession(h.caller.id);
    expect((await h.stores.schedules.getSchedule(mine))?.endReason).toBe("deleted");
    await h.pass(10 * MIN);
    expect(await h.stores.schedules.listFirings(mine)).toEqual([]);
  });
});

describe("R-SCH-03: schedules live on this relay", () => {
  it("a call naming a paired relay is refused REMOTE_RELAY_UNSUPPORTED", async () => {
    const h = await createWatchingHarness();
    await h.stores.peers.createPeer({
      id: "peer_1",
      name: "build-box",
      url: "http://127.0.0.1:9",
      level: "full",
      token: "t".repeat(32),
      createdAt: T0,
    });
    for (const action of ["schedule", "list_schedules", "unschedule"]) {
      const result = await h.call({
        action,
        relay: "build-box",
        title: "x",
        text: "x",
        every_minutes: 5,
        schedule_id: "sch_x",
      });
      expect(refusal(result).code).toBe("REMOTE_RELAY_UNSUPPORTED");
      expect(String(refusal(result).error)).toMatch(/kept by the relay on which the agent runs/);
    }
  });

  it("R-SCH-02: schedules need agent sessions on, even for the own conversation", async () => {
    const h = await createWatchingHarness();
    await h.patchSettings({ agentSessions: { enabled: false } });
    const result = await h.call({ action: "schedule", title: "x", text: "x", every_minutes: 5 });
    expect(refusal(result).code).toBe("REMOTE_RELAY_PERMISSION");
  });
});

describe("R-SCH-16/19: the cards of a schedule", () => {
  async function pending(h: WatchingHarness) {
    return h.stores.cards.listCards({ status: "pending" });
  }

  it("in ask mode the owner approves a schedule on a card; Deny creates nothing", async () => {
    const h = await createWatchingHarness({ approvalCards: true, caller: { mode: "ask" } });
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
    const call = h.call({ action: "schedule", title: "Later", text: "x", every_minutes: 5 });
    await settle(20);
    const [card] = await pending(h);
    expect(card).toMatchObject({ kind: "write_in_mode", action: "schedule" });
    await h.engine.owner.answerCard(card?.id as string, { choice: "deny" });
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect(refusal(await call).code).toBe("REMOTE_RELAY_PERMISSION");
    expect(await h.stores.schedules.listSchedulesOf(h.caller.id, { endedSince: 0 })).toEqual([]);
  });

  it("Allow on the agent's next anti-loop card releases its held firing at once (R-SCH-19)", async () => {
    const h = await createWatchingHarness({ approvalCards: true });
    const target = await h.agentSession({ title: "Builder" });
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
    const id = await scheduled(h, { session: target.id, every_minutes: 5 });
    for (let i = 1; i < LIMITS.antiLoopPrompts; i++) {
      await h.stores.loopCounters.incrementLoopCounter(h.caller.id);
    }
    await h.pass(5 * MIN);
    expect((await listed(h))[0]).toMatchObject({ id, heldForApproval: true });
    // The agent's next prompt to another agent asks the owner (GAP-04 (f)).
    const call = h.call({
      action: "schedule",
      title: "More",
      text: "y",
      every_minutes: 60,
      session: target.id,
    });
    await settle(20);
    const [card] = await pending(h);
    expect(card).toMatchObject({ kind: "anti_loop" });
    await h.engine.owner.answerCard(card?.id as string, { choice: "allow" });
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect((await call).ok).toBe(true);
    await h.flow();
    expect(await messagesOf(h, target.id, id)).toHaveLength(1);
    expect((await h.stores.schedules.getSchedule(id))?.heldSince).toBeNull();
  });

  it("refuses an `at` without an offset, naming the field", async () => {
    const h = await createWatchingHarness();
    const bare = await h.call({ action: "schedule", title: "x", text: "x", at: "2026-11-02T02:00:00" });
    expect(refusal(bare).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(String(refusal(bare).error)).toMatch(/^at/);
  });
});
