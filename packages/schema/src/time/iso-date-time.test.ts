import { describe, expect, it } from "vitest";
import { isIsoDateTimeWithOffset } from "./iso-date-time";

describe("isIsoDateTimeWithOffset (GAP-18)", () => {
  it("GAP-18: accepts ISO 8601 with Z or an offset, with or without seconds and fraction", () => {
    for (const value of [
      "2026-11-02T02:00:00Z",
      "2026-11-02T02:00:00.000Z",
      "2026-11-02T02:00Z",
      "2026-11-02T02:00:00+01:00",
      "2026-11-02T02:00-05:30",
      "2026-11-02T23:59:59.123456789Z",
    ]) {
      expect(isIsoDateTimeWithOffset(value), value).toBe(true);
    }
  });

  it("GAP-18: refuses a time without offset, a date alone, or another shape", () => {
    for (const value of [
      "2026-11-02T02:00:00",
      "2026-11-02",
      "2026-11-02 02:00:00Z",
      "2026-11-02T24:00:00Z",
      "2026-11-02T02:00:00+0100",
      "02:00Z",
      "tomorrow",
    ]) {
      expect(isIsoDateTimeWithOffset(value), value).toBe(false);
    }
  });

  it("GAP-18: refuses calendar dates that do not exist, and knows leap years", () => {
    expect(isIsoDateTimeWithOffset("2026-02-29T00:00:00Z")).toBe(false);
    expect(isIsoDateTimeWithOffset("2028-02-29T00:00:00Z")).toBe(true);
    expect(isIsoDateTimeWithOffset("2100-02-29T00:00:00Z")).toBe(false);
    expect(isIsoDateTimeWithOffset("2000-02-29T00:00:00Z")).toBe(true);
    expect(isIsoDateTimeWithOffset("2026-04-31T00:00:00Z")).toBe(false);
    expect(isIsoDateTimeWithOffset("2026-13-01T00:00:00Z")).toBe(false);
    expect(isIsoDateTimeWithOffset("2026-00-01T00:00:00Z")).toBe(false);
  });
});
