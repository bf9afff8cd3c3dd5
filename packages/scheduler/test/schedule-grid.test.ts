import { describe, expect, it } from "vitest";
import {
  dueSlot,
  missedSlots,
  nextFireAt,
  scheduleAnchor,
  slotAfter,
  slotToFire,
} from "../src/schedule-grid";

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

describe("slotToFire: the slot a due schedule fires for (R-SCH-10, R-SCH-11)", () => {
  const anchor = t("2026-11-02T02:00:00Z");

  it("is undefined before nextFireAt, the slot itself at it", () => {
    expect(slotToFire({ anchor, everyMinutes: 60, nextFireAt: anchor }, anchor - 1)).toBeUndefined();
    expect(slotToFire({ anchor, everyMinutes: 60, nextFireAt: anchor }, anchor)).toEqual({
      slot: anchor,
      passedOver: 0,
      next: anchor + 60 * MIN,
    });
  });

  it("after 5 h 17 min down fires the latest slot once, counts 5 passed over, keeps the grid", () => {
    const fired = slotToFire(
      { anchor, everyMinutes: 60, nextFireAt: anchor + 60 * MIN },
      anchor + 6 * 60 * MIN + 17 * MIN,
    );
    expect(fired).toEqual({ slot: anchor + 6 * 60 * MIN, passedOver: 5, next: anchor + 7 * 60 * MIN });
  });

  it("a once-only schedule fires its one slot however late", () => {
    expect(slotToFire({ anchor, nextFireAt: anchor }, anchor + 90 * 24 * 60 * MIN)).toEqual({
      slot: anchor,
      passedOver: 0,
      next: undefined,
    });
  });

  it("a daylight-saving change shifts no slot: the grid is whole intervals of real time", () => {
    // 02:00 in Paris on the day before summer time begins (2026-03-29 at 02:00 local).
    const paris = t("2026-03-28T02:00:00+01:00");
    const day = 1440;
    const fired = slotToFire(
      { anchor: paris, everyMinutes: day, nextFireAt: paris + day * MIN },
      paris + 36 * 60 * MIN,
    );
    expect(fired?.slot).toBe(t("2026-03-29T01:00:00Z"));
    expect(fired?.next).toBe(t("2026-03-30T01:00:00Z"));
    expect((fired?.slot ?? 0) - paris).toBe(24 * 60 * MIN);
  });

  it("a held firing released later fires the latest slot, never one before nextFireAt", () => {
    const next = anchor + 3 * 60 * MIN;
    expect(slotToFire({ anchor, everyMinutes: 60, nextFireAt: next }, next + 1)?.slot).toBe(next);
  });
});
