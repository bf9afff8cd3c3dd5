import { describe, expect, it } from "vitest";
import { dueSlot, missedSlots, nextFireAt, scheduleAnchor, slotAfter } from "../src/schedule-grid";

const t = (iso: string) => Date.parse(iso);
const MIN = 60_000;

describe("GAP-18: when a schedule first fires", () => {
  const createdAt = t("2026-11-01T12:00:00Z");

  it("fires only `at` once, at `at`", () => {
    const anchor = scheduleAnchor({ at: t("2026-11-02T02:00:00Z"), createdAt });
    expect(anchor).toBe(t("2026-11-02T02:00:00Z"));
    expect(nextFireAt({ anchor })).toBe(anchor);
    expect(nextFireAt({ anchor, lastSlot: anchor })).toBeUndefined();
  });

  it("fires only every_minutes first one interval after creation", () => {
    expect(scheduleAnchor({ everyMinutes: 90, createdAt })).toBe(createdAt + 90 * MIN);
  });

  it("fires both first at `at`, then on that grid (R-SCH-06 example)", () => {
    const anchor = scheduleAnchor({ at: t("2026-11-02T02:00:00Z"), everyMinutes: 1440, createdAt });
    expect(nextFireAt({ anchor, everyMinutes: 1440, lastSlot: anchor })).toBe(t("2026-11-03T02:00:00Z"));
  });

  it("R-SCH-05: refuses a schedule with neither", () => {
    expect(() => scheduleAnchor({ createdAt })).toThrow(/R-SCH-05/);
  });
});

describe("R-SCH-10/11: missed times fire once and keep the grid", () => {
  const anchor = t("2026-11-02T02:00:00Z");
  const timing = { anchor, everyMinutes: 60 };

  it("is not due before the anchor, due at it exactly", () => {
    expect(dueSlot(timing, anchor - 1)).toBeUndefined();
    expect(dueSlot(timing, anchor)).toBe(anchor);
  });

  it("fires one latest slot after downtime, not one per missed interval", () => {
    const lastSlot = anchor;
    const back = anchor + 5 * 60 * MIN + 17 * MIN; // relay back 5 h 17 min later
    const slot = dueSlot({ ...timing, lastSlot }, back);
    expect(slot).toBe(anchor + 5 * 60 * MIN);
    expect(missedSlots({ ...timing, lastSlot }, slot ?? 0)).toBe(4);
    // After that one firing nothing is due until the next slot of the original grid.
    expect(dueSlot({ ...timing, lastSlot: slot }, back)).toBeUndefined();
    expect(nextFireAt({ ...timing, lastSlot: slot })).toBe(anchor + 6 * 60 * MIN);
  });

  it("a once-only schedule missed while down fires once when the relay is back", () => {
    expect(dueSlot({ anchor }, anchor + 3 * 24 * 60 * MIN)).toBe(anchor);
    expect(dueSlot({ anchor, lastSlot: anchor }, anchor + 3 * 24 * 60 * MIN)).toBeUndefined();
  });

  it("slotAfter is strict and stays on the grid", () => {
    expect(slotAfter(anchor, 1, anchor - 5)).toBe(anchor);
    expect(slotAfter(anchor, 1, anchor)).toBe(anchor + MIN);
    expect(slotAfter(anchor, 1, anchor + MIN - 1)).toBe(anchor + MIN);
    expect(slotAfter(anchor, 525_600, anchor + 1)).toBe(anchor + 525_600 * MIN);
  });
});
