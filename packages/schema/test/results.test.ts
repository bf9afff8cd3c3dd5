import { describe, expect, it } from "vitest";
import {
  AskResultSchema,
  actionResultSchemas,
  ListRelaysResultSchema,
  ListSubscriptionsResultSchema,
  ReadTaskOutputResultSchema,
  RelayInfoResultSchema,
  RelayToolResultEnvelopeSchema,
  ScheduleResultSchema,
  SendResultSchema,
  SubscribeResultSchema,
  UpdateSessionResultSchema,
  UsageResultSchema,
} from "../src/index";

// The spec's example results (R-CALL-05: main fields only). Where an example leaves out a field
// the prose states (relay per R-CALL-03, a task's start per R-RTO-03 …), the test adds it.

describe("result schemas follow the spec's examples", () => {
  it("R-LREL-05: list_relays", () => {
    const result = {
      ok: true,
      relay: "desk",
      summary: "list_relays: 2 relays, 1 unlocked",
      self: { name: "desk" },
      relays: [
        { name: "desk", self: true, online: true, version: "0.9.19", permission: "full", unlocked: true },
        {
          name: "build-box",
          url: "https://build-box.example.com",
          online: true,
          version: "0.9.19",
          permission: "full",
          unlocked: false,
        },
      ],
      limits: { maxWaitSeconds: 600, maxActiveSessions: 4 },
    };
    expect(ListRelaysResultSchema.parse(result)).toEqual(result);
  });

  it("R-SEND-02: send", () => {
    const result = {
      ok: true,
      relay: "build-box",
      summary: "send → build-box session 3f9c2a1e: done",
      status: "done",
      session: "3f9c…",
      message_id: "b41e…",
      reply: { text: "Yes. The deploy finished at 02:14 and the health check is green.", model: "…" },
    };
    expect(SendResultSchema.parse(result)).toEqual(result);
  });

  it("GAP-10: send/create_session/wait statuses are done|running|queued|waiting|error|stopped", () => {
    const base = { ok: true, relay: "r", summary: "s", session: "s", message_id: "m" };
    for (const status of ["done", "running", "queued", "waiting", "error", "stopped"]) {
      expect(SendResultSchema.safeParse({ ...base, status }).success, status).toBe(true);
    }
    expect(SendResultSchema.safeParse({ ...base, status: "finished" }).success).toBe(false);
  });

  it("R-RTO-06: read_task_output", () => {
    const result = {
      ok: true,
      relay: "build-box",
      summary:
        "read_task_output → build-box session 3f9c2a1e task b7k2m9q4: 50 lines, running, last output 14 min ago, 412 passed, 2 failed",
      session: "3f9c…",
      task: {
        id: "b7k2…",
        description: "npm test",
        type: "local_bash",
        startedAt: "2026-10-18T08:40:00.000Z",
        status: "running",
        exitCode: null,
      },
      stall: { minutes: 14, since: "2026-10-18T09:12:00.000Z", quiet: true, quietAfterMinutes: 10 },
      counts: { runner: "vitest", passed: 412, failed: 2, skipped: 0, final: false },
      tail: ["…"],
      truncated: true,
    };
    expect(ReadTaskOutputResultSchema.parse(result)).toEqual(result);
  });

  it("R-RINFO-08/09: relay_info groups, or null with groupsNote", () => {
    const base = {
      ok: true,
      relay: "build-box",
      summary: "relay_info → build-box: 2 providers",
      name: "build-box",
      version: "0.9.19",
      platform: "linux",
      acceptsPrompts: true,
      providers: [
        {
          id: "script",
          name: "Script",
          defaultModel: "script-1",
          models: ["script-1", "script-2"],
          efforts: [],
        },
      ],
      folders: { default: "/home/dev", recent: ["/home/dev/projects/shop"] },
      modes: ["agent", "ask", "plan"],
    };
    const groups = [
      { id: "grp_…", name: "Release 2.4", memberCount: 3 },
      { id: "grp_…", name: "Review: server/", memberCount: 2 },
    ];
    expect(RelayInfoResultSchema.safeParse({ ...base, groups }).success).toBe(true);
    expect(RelayInfoResultSchema.safeParse({ ...base, groups: null, groupsNote: "older OAR" }).success).toBe(
      true,
    );
    const tooMany = Array.from({ length: 51 }, (_, index) => ({
      id: `g${index}`,
      name: "n",
      memberCount: 1,
    }));
    expect(RelayInfoResultSchema.safeParse({ ...base, groups: tooMany }).success).toBe(false);
  });

  it("R-UPD-04: update_session", () => {
    const result = {
      ok: true,
      relay: "desk",
      summary: "update_session → desk session 3f9c2a1e: model, effort, group",
      session: "3f9c…",
      settings: {
        model: "claude-sonnet-5-5",
        effort: "low",
        mode: "agent",
        auto_compact_window: "auto",
        title: "Review: server/",
        group: { id: "grp_…", name: "Release 2.4", role: "member" },
        thinking_enabled: true,
        thinking_display: "summarized",
        cwd: "/home/dev/projects/shop",
      },
      changed: ["model", "effort", "group"],
    };
    expect(UpdateSessionResultSchema.parse(result)).toEqual(result);
  });

  it("R-SUB-11: subscribe", () => {
    const result = {
      ok: true,
      relay: "desk",
      summary: "subscribe → desk: 2 sessions (sub_ab12cd34ef)",
      subscription: {
        id: "sub_ab12cd34ef",
        sessions: [
          { id: "3f9c…", title: "Review: server/" },
          { id: "a12b…", title: "Review: web/" },
        ],
        events: ["question_asked", "error", "all_idle"],
        once: false,
        stalledMinutes: 15,
      },
    };
    expect(SubscribeResultSchema.parse(result)).toEqual(result);
  });

  it("R-LSUB-07, GAP-16: list_subscriptions entry with sessions 'all', held events and end reasons", () => {
    const entry = {
      id: "sub_ab12cd34ef",
      scope: "all",
      sessions: "all",
      events: ["question_asked", "error"],
      once: false,
      match: null,
      stalledMinutes: 15,
      heartbeatMinutes: null,
      digestMinutes: 30,
      quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
      exclude: ["77aa…"],
      heldCount: 3,
      nextDeliveryAt: "2026-10-24T04:00:00.000Z",
      active: true,
    };
    const result = {
      ok: true,
      relay: "desk",
      summary: "list_subscriptions → desk: 1",
      subscriptions: [entry],
    };
    expect(ListSubscriptionsResultSchema.parse(result)).toEqual(result);
    for (const endReason of [
      "unsubscribed",
      "once",
      "archived",
      "unpaired",
      "transferred",
      "watcher_archived",
    ]) {
      const ended = { ...result, subscriptions: [{ ...entry, active: false, endReason }] };
      expect(ListSubscriptionsResultSchema.safeParse(ended).success, endReason).toBe(true);
    }
  });

  it("R-SCH-06: schedule", () => {
    const result = {
      ok: true,
      relay: "desk",
      summary: "schedule → desk: every 1440 min, next 2026-11-02T02:00:00.000Z (sch_3f9c2a1e7b04)",
      schedule_id: "sch_3f9c2a1e7b04",
      schedule: {
        id: "sch_3f9c2a1e7b04",
        title: "Nightly review",
        everyMinutes: 1440,
        once: false,
        nextFireAt: "2026-11-02T02:00:00.000Z",
      },
    };
    expect(ScheduleResultSchema.parse(result)).toEqual(result);
  });

  it("R-ASK-02: ask", () => {
    const result = {
      ok: true,
      relay: "desk",
      question_id: "ask_7d2…",
      status: "pending",
      summary: "ask → desk: question ask_7d2… pending",
    };
    expect(AskResultSchema.parse(result)).toEqual(result);
  });

  it("R-USAGE-02: usage gives each provider's counters and names those that are estimates", () => {
    const result = {
      ok: true,
      relay: "desk",
      summary: "usage → desk: 2 providers, 1 tracked",
      providers: [
        {
          provider: "claude-api",
          status: "ok",
          unit: "usd",
          consumed: 0.0016,
          allocation: 50,
          remaining: 49.9984,
          utilization: 0,
          inputTokens: 400,
          outputTokens: 80,
          resetAt: "2026-02-01T00:00:00.000Z",
          estimated: ["consumed", "remaining", "utilization"],
          estimateNote: "Claude Code's estimate from its own price table, not the bill.",
        },
        { provider: "script", status: "not_tracked" },
      ],
    };
    expect(UsageResultSchema.parse(result)).toEqual(result);
    const entry = (fields: Record<string, unknown>) =>
      UsageResultSchema.safeParse({ ...result, providers: [{ provider: "p", status: "ok", ...fields }] })
        .success;
    expect(entry({ estimated: ["resetAt"] })).toBe(false);
    expect(entry({ inputTokens: 1.5 })).toBe(false);
  });

  it("R-CALL-03: every result schema needs ok, relay and a one-line summary", () => {
    for (const [action, schema] of Object.entries(actionResultSchemas)) {
      const shape = schema.shape as Record<string, unknown>;
      expect(Object.keys(shape).slice(0, 3), action).toEqual(["ok", "relay", "summary"]);
    }
    const multiLine = { ok: true, relay: "r", summary: "a\nb", question_id: "q", status: "pending" };
    expect(AskResultSchema.safeParse(multiLine).success).toBe(false);
  });

  it("R-CALL-04: any result envelope keeps an action's fields when read generically", () => {
    const parsed = RelayToolResultEnvelopeSchema.parse({ ok: true, relay: "r", summary: "s", extra: 1 });
    expect(parsed).toEqual({ ok: true, relay: "r", summary: "s", extra: 1 });
    expect(
      RelayToolResultEnvelopeSchema.safeParse({ ok: false, code: "REMOTE_RELAY_BUSY", error: "busy" })
        .success,
    ).toBe(true);
  });
});
