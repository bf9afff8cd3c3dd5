import { describe, expect, it } from "vitest";
import {
  ErrorCodeSchema,
  ErrorEnvelopeSchema,
  errorCodeMeanings,
  errorEnvelope,
  KnownRemoteCodeSchema,
  OkEnvelopeBaseSchema,
  okEnvelope,
} from "../src/index";

describe("error codes (§37, GAP-20/21)", () => {
  it("§37/GAP-21: the relay's codes, each with one documented meaning", () => {
    expect(ErrorCodeSchema.options).toHaveLength(20);
    for (const code of [
      "REMOTE_RELAY_INVALID_INPUT",
      "REMOTE_RELAY_NOT_FOUND",
      "REMOTE_RELAY_UNSUPPORTED",
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      "REMOTE_RELAY_UNKNOWN_MODEL",
      "REMOTE_RELAY_UNKNOWN_GROUP",
      "REMOTE_RELAY_PERMISSION",
      "REMOTE_RELAY_NO_ACTIVE_TURN",
      "REMOTE_RELAY_BUSY",
      "REMOTE_RELAY_FORBIDDEN",
      "REMOTE_RELAY_SCHEDULE_LIMIT",
      "REMOTE_RELAY_QUESTION_LIMIT",
      "REMOTE_RELAY_LOCKED",
      "REMOTE_RELAY_LIMIT",
      "REMOTE_RELAY_HOP_LIMIT",
      "REMOTE_RELAY_SELF",
      "REMOTE_RELAY_UNREACHABLE",
      "REMOTE_RELAY_AUTH",
      "REMOTE_RELAY_UNAVAILABLE",
      "REMOTE_RELAY_INTERNAL",
    ]) {
      expect(ErrorCodeSchema.options).toContain(code);
    }
    for (const code of ErrorCodeSchema.options) {
      expect(errorCodeMeanings[code].length, code).toBeGreaterThan(10);
    }
  });

  it("R-BILL-04/R-MDL-06: provider codes travel in remoteCode, not in code", () => {
    expect(KnownRemoteCodeSchema.options).toEqual([
      "CLAUDE_API_CAP_REACHED",
      "MONTHLY_CAP_REACHED",
      "COPILOT_MODEL_UNAVAILABLE",
      "CLAUDE_PROVIDER_REQUIRED",
    ]);
    expect(ErrorCodeSchema.safeParse("CLAUDE_API_CAP_REACHED").success).toBe(false);
    const envelope = errorEnvelope("REMOTE_RELAY_PROVIDER_UNAVAILABLE", "cap reached", {
      remoteCode: "CLAUDE_API_CAP_REACHED",
    });
    expect(ErrorEnvelopeSchema.parse(envelope)).toEqual(envelope);
  });
});

describe("envelopes (R-CALL-03, R-CALL-04)", () => {
  it("R-CALL-03: okEnvelope puts ok, relay and summary first, drops an empty ignored, caps it at 20", () => {
    const envelope = okEnvelope(
      { relay: "desk", summary: "stop → desk session 3f9c2a1e: stop requested" },
      {
        session: "3f9c",
        stopRequested: true,
      },
    );
    expect(envelope).toEqual({
      ok: true,
      relay: "desk",
      summary: "stop → desk session 3f9c2a1e: stop requested",
      session: "3f9c",
      stopRequested: true,
    });
    expect(Object.keys(envelope).slice(0, 3)).toEqual(["ok", "relay", "summary"]);
    const many = Array.from({ length: 25 }, (_, index) => `x${index}`);
    const capped = okEnvelope({ relay: "r", summary: "s", ignored: many, note: "capped" });
    expect(capped.ignored).toHaveLength(20);
    expect(capped.note).toBe("capped");
    expect(OkEnvelopeBaseSchema.parse(capped)).toEqual(capped);
  });

  it("R-CALL-04/R-CGRP-07: errorEnvelope cuts groups at 20 and keeps the total", () => {
    const groups = Array.from({ length: 23 }, (_, index) => ({
      id: `g${index}`,
      name: `G${index}`,
      memberCount: 1,
    }));
    const envelope = errorEnvelope(
      "REMOTE_RELAY_UNKNOWN_GROUP",
      'Relay "build-box" has no session group "Relase".',
      {
        groups,
      },
    );
    expect(envelope.groups).toHaveLength(20);
    expect(envelope.groupsTotal).toBe(23);
    expect(ErrorEnvelopeSchema.parse(envelope)).toEqual(envelope);
  });

  it("R-MDL-03: suggestions and models ride along", () => {
    const envelope = errorEnvelope("REMOTE_RELAY_UNKNOWN_MODEL", "Unknown model 'gpt-5-4'", {
      suggestions: ["gpt-5.4"],
      models: ["gpt-5.4", "gpt-5.5"],
    });
    expect(envelope).toEqual({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error: "Unknown model 'gpt-5-4'",
      suggestions: ["gpt-5.4"],
      models: ["gpt-5.4", "gpt-5.5"],
    });
  });

  it("R-CALL-04: an error envelope needs a known code and a non-empty error", () => {
    expect(ErrorEnvelopeSchema.safeParse({ ok: false, code: "OOPS", error: "x" }).success).toBe(false);
    expect(ErrorEnvelopeSchema.safeParse({ ok: false, code: "REMOTE_RELAY_BUSY", error: "" }).success).toBe(
      false,
    );
  });
});
