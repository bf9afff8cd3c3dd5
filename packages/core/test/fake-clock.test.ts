import { describe, expect, it } from "vitest";
import { sleep } from "../src/clock";
import { FakeClock } from "../src/testing/fake-clock";

describe("FakeClock", () => {
  it("starts at the given instant and moves only on advance", () => {
    const clock = new FakeClock("2026-11-29T10:00:00.000Z");
    expect(new Date(clock.now()).toISOString()).toBe("2026-11-29T10:00:00.000Z");
    clock.advance(1500);
    expect(clock.now()).toBe(Date.parse("2026-11-29T10:00:01.500Z"));
  });

  it("fires timers in due order, each seeing its own due time", () => {
    const clock = new FakeClock(0);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(["b", clock.now()]), 200);
    clock.setTimeout(() => seen.push(["a", clock.now()]), 100);
    clock.setTimeout(() => seen.push(["c", clock.now()]), 300);
    clock.advance(250);
    expect(seen).toEqual([
      ["a", 100],
      ["b", 200],
    ]);
    expect(clock.now()).toBe(250);
    expect(clock.pendingTimers()).toBe(1);
  });

  it("fires a timer that a timer sets, when it falls within the same advance", () => {
    const clock = new FakeClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 50);
    }, 100);
    clock.advance(1000);
    expect(seen).toEqual([100, 150]);
  });

  it("never fires a cleared timer", () => {
    const clock = new FakeClock(0);
    let fired = false;
    const id = clock.setTimeout(() => {
      fired = true;
    }, 10);
    clock.clearTimeout(id);
    clock.advance(100);
    expect(fired).toBe(false);
  });

  it("resolves sleep() when the test advances time, not before", async () => {
    const clock = new FakeClock(0);
    let done = false;
    const slept = sleep(clock, 60_000).then(() => {
      done = true;
    });
    await clock.advanceAsync(59_999);
    expect(done).toBe(false);
    await clock.advanceAsync(1);
    await slept;
    expect(done).toBe(true);
  });

  it("jumpAsync fires each timer due by the new time once, at that time, in due order", async () => {
    const clock = new FakeClock(0);
    const seen: string[] = [];
    const poll = () => {
      seen.push(`poll ${clock.now()}`);
      clock.setTimeout(poll, 3_000);
    };
    clock.setTimeout(poll, 3_000);
    clock.setTimeout(() => seen.push(`once ${clock.now()}`), 1_000);
    clock.setTimeout(() => seen.push("later"), 100_000);
    await clock.jumpAsync(86_400_000);
    expect(seen).toEqual(["once 86400000", "poll 86400000", "later"]);
    expect(clock.pendingTimers()).toBe(1);
    await clock.advanceAsync(3_000);
    expect(seen.at(-1)).toBe("poll 86403000");
  });

  it("waits for what `settle` says between timers", async () => {
    let settled = 0;
    const clock = new FakeClock(0, {
      settle: async () => {
        settled++;
      },
    });
    clock.setTimeout(() => {}, 10);
    clock.setTimeout(() => {}, 20);
    await clock.advanceAsync(100);
    // Before the first timer, after each, and once more at the end.
    expect(settled).toBe(4);
  });
});
