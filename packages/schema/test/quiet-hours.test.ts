import { describe, expect, it } from "vitest";
import { parseCall, QuietHoursSchema } from "../src/index";

const TIME = 'quiet_hours from and to must be times of day as "HH:MM" (00:00 to 23:59)';
const DIFFER = "quiet_hours from and to must differ";
const tzMessage = (tz: string) =>
  `quiet_hours tz "${tz}" is not an IANA time zone (for example "Europe/Berlin", "America/New_York", "UTC")`;

function errorOf(quiet_hours: unknown): string {
  const result = parseCall({ action: "subscribe", sessions: ["all"], quiet_hours });
  return result.ok ? "ok" : result.envelope.error;
}

describe("quiet_hours (R-FEW-07 … R-FEW-17)", () => {
  it("R-FEW-03: the spec's example is accepted as given", () => {
    const result = parseCall({
      action: "subscribe",
      sessions: ["all"],
      exclude: ["77aa…"],
      digest_minutes: 30,
      quiet_hours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
    });
    expect(result.ok && result.call).toMatchObject({
      quiet_hours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
    });
  });

  it("R-FEW-08: 00:00 and 23:59 are the edges of a time of day; the window may span midnight", () => {
    expect(errorOf({ from: "23:59", to: "00:00", tz: "UTC" })).toBe("ok");
    expect(errorOf({ from: "00:00", to: "23:59", tz: "UTC" })).toBe("ok");
  });

  it("R-FEW-16: a time that is not HH:MM gets the spec's exact message", () => {
    for (const from of ["24:00", "23:60", "7:00", "07:00:00", "0700", " 07:00", 700]) {
      expect(errorOf({ from, to: "06:00", tz: "UTC" })).toBe(TIME);
    }
    expect(errorOf({ from: "23:00", to: "6pm", tz: "UTC" })).toBe(TIME);
  });

  it("R-FEW-16: both times wrong still give the message once", () => {
    expect(errorOf({ from: "x", to: "y", tz: "UTC" })).toBe(TIME);
  });

  it("R-FEW-16: from and to must differ, with the spec's exact message", () => {
    expect(errorOf({ from: "06:00", to: "06:00", tz: "Europe/Berlin" })).toBe(DIFFER);
  });

  it("R-FEW-16: a tz that is not an IANA zone gets the spec's exact message", () => {
    for (const tz of ["Berlin", "Mars/Olympus", "+01:00", "Z", "Europe/ Berlin"]) {
      expect(errorOf({ from: "23:00", to: "06:00", tz })).toBe(tzMessage(tz));
    }
  });

  it("R-FEW-07: IANA zones are accepted, including UTC and zones with DST", () => {
    for (const tz of ["Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata", "Etc/GMT+1"]) {
      expect(errorOf({ from: "23:00", to: "06:00", tz })).toBe("ok");
    }
  });

  it("R-FEW-16: a missing field is reported; a missing tz says what to pass", () => {
    expect(errorOf({ from: "23:00", tz: "UTC" })).toBe(TIME);
    expect(errorOf({ from: "23:00", to: "06:00" })).toBe(
      'quiet_hours tz is required: an IANA time zone (for example "Europe/Berlin", "America/New_York", "UTC")',
    );
    expect(errorOf({ from: "23:00", to: "06:00", tz: "" })).toBe(
      'quiet_hours tz is required: an IANA time zone (for example "Europe/Berlin", "America/New_York", "UTC")',
    );
  });

  it("R-FEW-17: a quiet_hours whose fields are all empty counts as none", () => {
    expect(errorOf({ from: "", to: "", tz: "" })).toBe("ok");
    expect(errorOf({ from: null, to: false, tz: "" })).toBe("ok");
    expect(errorOf({})).toBe("ok");
  });

  it("R-CALL-06: a field quiet_hours does not take is refused, not dropped", () => {
    expect(errorOf({ from: "23:00", to: "06:00", tz: "UTC", days: ["mon"] })).toBe(
      "quiet_hours takes from, to and tz only (got days)",
    );
  });

  it("R-FEW-07: quiet_hours must be an object", () => {
    expect(errorOf("23:00-06:00")).toBe(
      'quiet_hours must be an object { "from": "HH:MM", "to": "HH:MM", "tz": "Area/City" } (got "23:00-06:00")',
    );
  });

  it("QuietHoursSchema is usable on its own (list_subscriptions results)", () => {
    expect(QuietHoursSchema.safeParse({ from: "23:00", to: "06:00", tz: "Europe/Berlin" }).success).toBe(
      true,
    );
    expect(QuietHoursSchema.safeParse({ from: "23:00", to: "23:00", tz: "Europe/Berlin" }).success).toBe(
      false,
    );
  });
});
