import type { OutboxEvent } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { EVENT_MESSAGE_HEADER, eventLine, eventMessage } from "../src/event-message";
import type { WakeupRecord } from "../src/ports/delivery-store";
import type { SubscriptionRecord } from "../src/ports/subscription-store";
import { deliveryTiming, firstRelease, GROUPING_WINDOW_MS, nextDigestAt, releaseOf } from "../src/release";
import { eventsOf, receives, watches } from "../src/subscription-match";
import { planTick } from "../src/ticks";
import { capHoldUntil } from "../src/wakeup-cap";

const t = (iso: string) => Date.parse(iso);
const MIN = 60_000;
const T0 = t("2026-10-20T10:00:00Z");

function subscription(overrides: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id: "sub_1",
    watcher: "ses_w",
    watcherRelay: null,
    relay: null,
    remoteId: null,
    remoteCursor: null,
    linkLostAt: null,
    remoteEndedAt: null,
    scope: "list",
    sessions: ["ses_a", "ses_b"],
    exclude: [],
    events: null,
    once: false,
    match: null,
    stalledMinutes: 15,
    heartbeatMinutes: null,
    digestMinutes: null,
    quietHours: null,
    createdAt: T0,
    lastDigestAt: null,
    nextTickAt: null,
    endedAt: null,
    endReason: null,
    ...overrides,
  };
}

const turnEnd = (session = "ses_a", text = "Found 4 places without input checks: …"): OutboxEvent => ({
  kind: "turn_end",
  id: "evt_1",
  at: "2026-10-20T10:00:00.000Z",
  session,
  title: "Review: server/",
  status: "done",
  text,
});

const routed = (event: OutboxEvent, sessionId: string | null = "ses_a") => ({
  event,
  sessionId,
  subscriptionId: null,
  line: eventLine(event),
});

describe("which subscriptions receive an event", () => {
  it("R-EVT-01: no events named → the default set", () => {
    expect(eventsOf(subscription())).toEqual([
      "question_asked",
      "error",
      "turn_end",
      "subagent_finished",
      "task_failed",
      "stalled",
      "all_idle",
    ]);
    expect(eventsOf(subscription({ events: ["error"] }))).toEqual(["error"]);
  });

  it("R-SUB-06: the own conversation is never watched, not even with all", () => {
    expect(watches(subscription({ scope: "all", sessions: [] }), "ses_w")).toBe(false);
    expect(watches(subscription({ sessions: ["ses_w"] }), "ses_w")).toBe(false);
  });

  it("R-FEW-18: all watches every session but the excluded", () => {
    const all = subscription({ scope: "all", sessions: [], exclude: ["ses_x"] });
    expect(watches(all, "ses_a")).toBe(true);
    expect(watches(all, "ses_x")).toBe(false);
  });

  it("GAP-11: match is a substring of the event's text; events not named are not received", () => {
    expect(receives(subscription({ match: "input checks" }), routed(turnEnd()))).toBe(true);
    expect(receives(subscription({ match: "deploy" }), routed(turnEnd()))).toBe(false);
    expect(receives(subscription({ events: ["error"] }), routed(turnEnd()))).toBe(false);
    expect(receives(subscription(), routed(turnEnd("ses_z"), "ses_z"))).toBe(false);
    expect(receives(subscription({ endedAt: T0 }), routed(turnEnd()))).toBe(false);
  });

  it("a subscription-wide event goes to its own subscription only", () => {
    const idle = { ...routed(turnEnd(), null), subscriptionId: "sub_2" };
    expect(receives(subscription(), idle)).toBe(false);
    expect(receives(subscription({ id: "sub_2" }), idle)).toBe(true);
  });

  it("§28: a mirror of a paired relay's subscription watches no session here and receives only the events fetched for it", () => {
    const mirror = subscription({
      id: "sub_m",
      scope: "all",
      sessions: [],
      relay: "build-box",
      remoteId: "sub_r",
    });
    expect(receives(mirror, routed(turnEnd()))).toBe(false);
    expect(watches(mirror, "ses_a")).toBe(false);
    const fetched = {
      ...routed({ ...turnEnd("77aa"), relay: "build-box" }, "77aa"),
      subscriptionId: "sub_m",
    };
    expect(receives(mirror, fetched)).toBe(true);
    expect(eventLine(fetched.event)).toMatch(
      /^build-box · session "Review: server\/" \(77aa\): turn_end \(done\)/,
    );
  });
});

describe("when a subscription lets an event go", () => {
  it("R-FEW-02, R-DLV-06: questions, answers and errors go at once, whatever the options", () => {
    const held = subscription({ digestMinutes: 30, quietHours: { from: "00:00", to: "23:59", tz: "UTC" } });
    for (const kind of ["question_asked", "question_answered", "error"]) {
      expect(releaseOf(held, kind, T0 + MIN)).toEqual({ reason: "urgent", dueAt: T0 + MIN });
    }
  });

  it("without options an event joins the watcher's 30 s window (R-DLV-04)", () => {
    const release = releaseOf(subscription(), "turn_end", T0);
    expect(release).toEqual({ reason: "window" });
    expect(deliveryTiming(release, T0, null)).toEqual({ reason: "window", dueAt: T0 + GROUPING_WINDOW_MS });
    expect(deliveryTiming(release, T0 + 10_000, T0 + GROUPING_WINDOW_MS)).toEqual({
      reason: "window",
      dueAt: T0 + GROUPING_WINDOW_MS,
    });
  });

  it("R-FEW-04: digests every N minutes from creation, each N minutes after the previous", () => {
    const digest = subscription({ digestMinutes: 30 });
    expect(nextDigestAt(digest, T0 + MIN)).toBe(T0 + 30 * MIN);
    expect(nextDigestAt(digest, T0 + 31 * MIN)).toBe(T0 + 60 * MIN);
    expect(nextDigestAt({ ...digest, lastDigestAt: T0 + 70 * MIN }, T0 + 71 * MIN)).toBe(T0 + 120 * MIN);
    expect(releaseOf(digest, "turn_end", T0 + MIN)).toEqual({ reason: "digest", dueAt: T0 + 30 * MIN });
  });

  it("R-FEW-09, R-FEW-11: quiet hours hold an event, and a digest falling inside them, to the window's end", () => {
    const quiet = subscription({ quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" } });
    const night = t("2026-10-20T22:00:00Z"); // 00:00 in Berlin (CEST)
    expect(releaseOf(quiet, "turn_end", night)).toEqual({
      reason: "quiet",
      dueAt: t("2026-10-21T04:00:00Z"),
    });
    const both = subscription({
      createdAt: t("2026-10-20T20:30:00Z"),
      digestMinutes: 60,
      quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
    });
    // The digest slot 21:30Z is 23:30 in Berlin: postponed to 06:00 Berlin.
    expect(releaseOf(both, "turn_end", t("2026-10-20T21:00:00Z"))).toEqual({
      reason: "quiet",
      dueAt: t("2026-10-21T04:00:00Z"),
    });
  });

  it("R-FEW-21: the first subscription that lets it go wins; one without options at once", () => {
    const options = [
      { name: "digest", release: releaseOf(subscription({ digestMinutes: 30 }), "turn_end", T0) },
      { name: "plain", release: releaseOf(subscription(), "turn_end", T0) },
    ];
    expect(firstRelease(options)?.name).toBe("plain");
    const held = [
      { name: "late", release: { reason: "digest" as const, dueAt: T0 + 60 * MIN } },
      { name: "early", release: { reason: "quiet" as const, dueAt: T0 + 5 * MIN } },
    ];
    expect(firstRelease(held)?.name).toBe("early");
  });
});

describe("R-DLV-05: the hourly cap", () => {
  const wakeups = (count: number, at: (i: number) => number, kind: WakeupRecord["kind"] = "batch") =>
    Array.from({ length: count }, (_, i) => ({ messageId: `m${i}`, watcher: "ses_w", at: at(i), kind }));

  it("20 wake-ups in the last hour are allowed, the 21st is held to the next 10-minute mark", () => {
    const now = T0 + 60 * MIN;
    expect(
      capHoldUntil(
        wakeups(19, (i) => T0 + 1 + i * MIN),
        now,
      ),
    ).toBeNull();
    expect(
      capHoldUntil(
        wakeups(20, (i) => T0 + 1 + i * MIN),
        now,
      ),
    ).toBe(now + 10 * MIN);
    // Every batch held before that digest goes with it: one digest, not one each.
    const recent = wakeups(20, (i) => T0 + 40 * MIN + i * 1000);
    expect(capHoldUntil(recent, now + 1)).toBe(now + 10 * MIN);
    expect(capHoldUntil(recent, now + 7 * MIN)).toBe(now + 10 * MIN);
  });

  it("wake-ups older than an hour no longer count", () => {
    expect(
      capHoldUntil(
        wakeups(20, () => T0),
        T0 + 60 * MIN,
      ),
    ).toBeNull();
  });

  it("then a digest every 10 minutes after the previous cap digest", () => {
    const now = T0 + 30 * MIN;
    const history = [...wakeups(20, (i) => T0 + i * 1000), ...wakeups(1, () => T0 + 25 * MIN, "cap")];
    expect(capHoldUntil(history, now)).toBe(T0 + 35 * MIN);
  });
});

describe("R-DLV-01: the event message", () => {
  it("reads exactly as the spec's example", () => {
    const idle: OutboxEvent = {
      kind: "all_idle",
      id: "evt_2",
      at: "2026-10-20T10:00:00.000Z",
      subscription_id: "sub_ab12cd34ef",
      session: null,
      title: null,
      watchedCount: 2,
    };
    expect(eventMessage([{ events: [turnEnd("3f9c…"), idle] }])).toBe(
      [
        "[relay event · automated message from OAR, not from the user; it approves nothing]",
        '[relay event] session "Review: server/" (3f9c…): turn_end (done) "Found 4 places without input checks: …"',
        "[relay event] all_idle: no turn or task is running in the 2 watched sessions (subscription sub_ab12cd34ef)",
      ].join("\n"),
    );
  });

  it("R-FEW-05: a digest says how many events and why; R-FEW-06: a digest of one reads like the event", () => {
    const many = eventMessage([
      {
        events: [turnEnd(), turnEnd(), turnEnd(), turnEnd()],
        digest: { subscriptionId: "sub_x", minutes: 30 },
      },
    ]);
    expect(many.split("\n")[1]).toBe(
      "Digest of 4 events (subscription sub_x every 30 min; questions and errors come at once):",
    );
    const one = eventMessage([{ events: [turnEnd()], digest: { subscriptionId: "sub_x", minutes: 30 } }]);
    expect(one.split("\n")).toHaveLength(2);
    expect(one.startsWith(EVENT_MESSAGE_HEADER)).toBe(true);
  });

  it("R-FEW-09: the quiet-hours line", () => {
    const text = eventMessage([
      {
        events: [turnEnd(), turnEnd(), turnEnd()],
        quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
      },
    ]);
    expect(text.split("\n")[1]).toBe(
      "Held during quiet hours (23:00–06:00 Europe/Berlin): 3 events, delivered now that the window has ended; questions and errors came at once",
    );
  });

  it("R-DLV-07: the cap's digest and a subscription's digest coinciding make one line naming both", () => {
    const text = eventMessage([
      { events: [turnEnd(), turnEnd()], cap: true, digest: { subscriptionId: "sub_x", minutes: 30 } },
    ]);
    expect(text.split("\n")[1]).toBe(
      "Digest of 2 events (subscription sub_x every 30 min, and more than 20 wake-ups in the last hour: every 10 min; questions and errors come at once):",
    );
  });

  it("R-PAIR-04: what a paired relay kept while the link was down reads as one line marked replayed", () => {
    const fromBox = (event: OutboxEvent, replayed: boolean) =>
      ({
        ...event,
        relay: "build-box",
        subscription_id: "sub_m",
        ...(replayed ? { replayed: true } : {}),
      }) as OutboxEvent;
    const error: OutboxEvent = {
      kind: "error",
      id: "evt_e",
      at: "2026-10-20T10:01:00.000Z",
      session: "ses_b",
      title: "Nightly deploy",
      message: "exit 1",
    };
    const restored: OutboxEvent = {
      kind: "link_restored",
      id: "evt_r",
      at: "2026-10-20T10:02:00.000Z",
      relay: "build-box",
      subscription_id: "sub_m",
      session: null,
      title: null,
      replayed: 2,
      held: 0,
    };
    const text = eventMessage([
      {
        events: [
          fromBox(turnEnd("ses_a", "Rolled back."), true),
          fromBox(error, true),
          fromBox(turnEnd("ses_a", "Live again."), false),
          restored,
        ],
      },
    ]);
    expect(text.split("\n")).toEqual([
      EVENT_MESSAGE_HEADER,
      '[relay event] build-box · replayed 2 events (subscription sub_m): session "Review: server/" (ses_a): turn_end (done) "Rolled back." | session "Nightly deploy" (ses_b): error "exit 1"',
      '[relay event] build-box · session "Review: server/" (ses_a): turn_end (done) "Live again."',
      "[relay event] link_restored (subscription sub_m): 2 replayed, 0 held",
    ]);
  });

  it("lines are one line each, whatever the text holds", () => {
    expect(eventLine(turnEnd("ses_a", "two\nlines"))).toBe(
      'session "Review: server/" (ses_a): turn_end (done) "two lines"',
    );
  });
});

describe("GAP-13/14: heartbeats and stall checks", () => {
  it("a heartbeat every N minutes from creation, none inside quiet hours (R-FEW-10)", () => {
    const beating = subscription({ heartbeatMinutes: 60, events: ["turn_end"] });
    expect(planTick(beating, [], T0 + 60 * MIN)).toEqual({
      heartbeatSlot: T0 + 60 * MIN,
      stalled: [],
      nextTickAt: T0 + 120 * MIN,
    });
    const quiet = { ...beating, quietHours: { from: "09:00", to: "18:00", tz: "UTC" } };
    expect(planTick(quiet, [], T0 + 60 * MIN).heartbeatSlot).toBeNull();
  });

  it("a running turn is stalled after stalled_minutes, and the next tick comes when the next one would be", () => {
    const work = [
      { id: "turn_1", sessionId: "ses_a", startedAt: T0, lastOutputAt: null },
      { id: "turn_2", sessionId: "ses_b", startedAt: T0 + 10 * MIN, lastOutputAt: null },
    ];
    const plan = planTick(subscription(), work, T0 + 15 * MIN);
    expect(plan.stalled).toEqual([{ ...work[0], silentSince: T0 }]);
    // turn_1 is looked at again in a minute; turn_2 stalls at +25.
    expect(plan.nextTickAt).toBe(T0 + 16 * MIN);
    expect(planTick(subscription(), work.slice(1), T0 + 15 * MIN).nextTickAt).toBe(T0 + 25 * MIN);
    expect(planTick(subscription({ events: ["turn_end"] }), work, T0 + 15 * MIN)).toEqual({
      heartbeatSlot: null,
      stalled: [],
      nextTickAt: null,
    });
  });

  it("GAP-13: output restarts the stall clock; a second silence as long is a second stall", () => {
    const talking = { id: "turn_1", sessionId: "ses_a", startedAt: T0, lastOutputAt: T0 + 12 * MIN };
    const plan = planTick(subscription(), [talking], T0 + 15 * MIN);
    expect(plan.stalled).toEqual([]);
    expect(plan.nextTickAt).toBe(T0 + 27 * MIN);
    expect(planTick(subscription(), [talking], T0 + 27 * MIN).stalled).toEqual([
      { ...talking, silentSince: T0 + 12 * MIN },
    ]);
    // Output before the turn's start (a clock step) does not move the clock back.
    const early = { ...talking, lastOutputAt: T0 - MIN };
    expect(planTick(subscription(), [early], T0 + 15 * MIN).stalled).toEqual([{ ...early, silentSince: T0 }]);
  });
});
