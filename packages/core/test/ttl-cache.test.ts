import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/testing/fake-clock";
import { createTtlCache } from "../src/ttl-cache";

describe("TtlCache", () => {
  it("loads once per TTL and again after it", async () => {
    const clock = new FakeClock(0);
    const cache = createTtlCache<string, number>({ clock, ttlMs: 1000 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("k", load)).toBe(1);
    clock.advance(999);
    expect(await cache.get("k", load)).toBe(1);
    clock.advance(1);
    expect(await cache.get("k", load)).toBe(2);
  });

  it("forgets on delete and clear", async () => {
    const clock = new FakeClock(0);
    const cache = createTtlCache<string, number>({ clock, ttlMs: 1000 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.get("k", load);
    cache.delete("k");
    expect(await cache.get("k", load)).toBe(2);
    cache.clear();
    expect(await cache.get("k", load)).toBe(3);
  });

  it("does not keep a failed load, nor a value `keep` refuses", async () => {
    const clock = new FakeClock(0);
    const cache = createTtlCache<string, number | null>({ clock, ttlMs: 1000, keep: (v) => v !== null });
    await expect(cache.get("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("k", async () => null)).toBeNull();
    expect(await cache.get("k", async () => 7)).toBe(7);
    expect(await cache.get("k", async () => 8)).toBe(7);
  });
});
