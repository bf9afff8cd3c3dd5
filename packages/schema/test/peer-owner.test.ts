import { describe, expect, it } from "vitest";
import {
  AuthErrorBodySchema,
  HealthzSchema,
  OwnerCardAnswerBodySchema,
  OwnerCreatePeerBodySchema,
  OwnerCreateSessionBodySchema,
  OwnerInboxAnswerBodySchema,
  OwnerPatchSessionBodySchema,
  OwnerPostMessageBodySchema,
  OwnerSettingsPatchSchema,
  OwnerSettingsSchema,
  PeerEventsPageSchema,
  PeerEventsQuerySchema,
  PeerInfoSchema,
  PeerQuestionStatusSchema,
  PeerToolRequestSchema,
} from "../src/index";

describe("peer protocol (DESIGN §4)", () => {
  it("R-HOP-01/03: a peer tool request carries the call and its origin", () => {
    const request = {
      call: { action: "send", relay: "build-box", session: "3f9c", text: "hi" },
      origin: {
        relay: "desk",
        session: "c0de",
        title: "Release",
        model: "script-1",
        hops: 1,
        userUnlocked: true,
      },
    };
    expect(PeerToolRequestSchema.parse(request)).toEqual(request);
    expect(
      PeerToolRequestSchema.safeParse({ ...request, origin: { ...request.origin, hops: -1 } }).success,
    ).toBe(false);
    expect(PeerToolRequestSchema.safeParse({ ...request, call: "send" }).success).toBe(false);
  });

  it("peer info, events page and question status", () => {
    expect(
      PeerInfoSchema.safeParse({ name: "build-box", version: "0.9.19", features: ["groups"] }).success,
    ).toBe(true);
    expect(PeerEventsPageSchema.safeParse({ events: [], cursor: null, truncated: false }).success).toBe(true);
    expect(
      PeerQuestionStatusSchema.safeParse({
        question_id: "ask_1",
        status: "answered",
        answer: "Wait",
        choice: "Wait",
        dismissed: false,
        via: "desk",
        answeredAt: "2026-10-18T09:12:00.000Z",
      }).success,
    ).toBe(true);
  });

  it("R-PAIR-04: a replay page holds at most 500 events; query strings are coerced", () => {
    expect(PeerEventsQuerySchema.parse({ after: "c_1", limit: "500" })).toEqual({ after: "c_1", limit: 500 });
    expect(PeerEventsQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(PeerEventsQuerySchema.safeParse({ limit: "501" }).success).toBe(false);
  });
});

describe("owner API bodies (DESIGN §4)", () => {
  it("sessions: create, post message, patch (mayCreateSessions is the owner's, R-LOCAL-05)", () => {
    expect(
      OwnerCreateSessionBodySchema.safeParse({ provider: "script", text: "hi", mode: "agent" }).success,
    ).toBe(true);
    expect(OwnerCreateSessionBodySchema.safeParse({ prompt: "hi" }).success).toBe(false);
    expect(OwnerPostMessageBodySchema.safeParse({ text: "@build-box run the tests" }).success).toBe(true);
    expect(OwnerPostMessageBodySchema.safeParse({ text: "" }).success).toBe(false);
    expect(OwnerPatchSessionBodySchema.safeParse({ mayCreateSessions: false }).success).toBe(true);
    expect(OwnerPatchSessionBodySchema.safeParse({ group: null }).success).toBe(true);
    expect(OwnerPatchSessionBodySchema.safeParse({}).success).toBe(false);
  });

  it("cards: allow/deny, or an answer", () => {
    expect(OwnerCardAnswerBodySchema.safeParse({ choice: "allow" }).success).toBe(true);
    expect(OwnerCardAnswerBodySchema.safeParse({ choice: "deny" }).success).toBe(true);
    expect(OwnerCardAnswerBodySchema.safeParse({ choices: ["Merge"] }).success).toBe(true);
    expect(OwnerCardAnswerBodySchema.safeParse({ answer: "staging" }).success).toBe(true);
    expect(OwnerCardAnswerBodySchema.safeParse({ choice: "maybe" }).success).toBe(false);
    expect(OwnerCardAnswerBodySchema.safeParse({}).success).toBe(false);
  });

  it("inbox: answer, choice or dismiss", () => {
    expect(OwnerInboxAnswerBodySchema.safeParse({ answer: "Wait" }).success).toBe(true);
    expect(OwnerInboxAnswerBodySchema.safeParse({ dismiss: true }).success).toBe(true);
    expect(OwnerInboxAnswerBodySchema.safeParse({ dismiss: true, answer: "x" }).success).toBe(false);
    expect(OwnerInboxAnswerBodySchema.safeParse({}).success).toBe(false);
  });

  it("R-WST-02: settings defaults, and the longest wait is 120–3600 s", () => {
    expect(OwnerSettingsSchema.parse({})).toEqual({
      agentSessions: { enabled: true, longestWaitSeconds: 600 },
      acceptPromptsFromOtherRelays: true,
      quietAfterMinutes: 10,
      maxTurnSeconds: 3600,
      providers: {},
    });
    for (const [value, ok] of [
      [120, true],
      [3600, true],
      [119, false],
      [3601, false],
    ] as const) {
      const patch = { agentSessions: { longestWaitSeconds: value } };
      expect(OwnerSettingsPatchSchema.safeParse(patch).success, String(value)).toBe(ok);
    }
    expect(OwnerSettingsPatchSchema.safeParse({}).success).toBe(false);
    expect(OwnerSettingsPatchSchema.safeParse({ unknownSetting: 1 }).success).toBe(false);
  });

  it("R-PERM-02/R-RLY-02: peers default to full, levels none|read|prompt|full, 'this' is not a name", () => {
    const peer = { name: "build-box", url: "https://build-box.example.com", token: "tok" };
    expect(OwnerCreatePeerBodySchema.parse(peer)).toEqual({ ...peer, level: "full" });
    for (const level of ["none", "read", "prompt", "full"]) {
      expect(OwnerCreatePeerBodySchema.safeParse({ ...peer, level }).success, level).toBe(true);
    }
    expect(OwnerCreatePeerBodySchema.safeParse({ ...peer, level: "write" }).success).toBe(false);
    expect(OwnerCreatePeerBodySchema.safeParse({ ...peer, name: "This" }).success).toBe(false);
    expect(OwnerCreatePeerBodySchema.safeParse({ ...peer, url: "ftp://x" }).success).toBe(false);
  });

  it("auth error and healthz bodies", () => {
    expect(
      AuthErrorBodySchema.safeParse({ ok: false, code: "REMOTE_RELAY_AUTH", error: "bad token" }).success,
    ).toBe(true);
    expect(HealthzSchema.safeParse({ ok: true, name: "desk", version: "0.1.0" }).success).toBe(true);
  });
});
