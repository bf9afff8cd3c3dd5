import { FakeClock } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import { cachingSettingsStore } from "../src/settings/settings-cache";
import { createMemorySettingsStore } from "../src/testing";

function countingStore() {
  const inner = createMemorySettingsStore();
  let reads = 0;
  return {
    inner,
    reads: () => reads,
    store: {
      ...inner,
      getSetting: (key: string) => {
        reads++;
        return inner.getSetting(key);
      },
    },
  };
}

describe("settings cache", () => {
  it("serves repeated reads from memory until the TTL passes", async () => {
    const clock = new FakeClock(0);
    const { store, reads, inner } = countingStore();
    const cached = cachingSettingsStore(store, { clock, ttlMs: 1000 });
    await inner.setSetting("k", 1);
    expect(await cached.getSetting("k")).toBe(1);
    expect(await cached.getSetting("k")).toBe(1);
    expect(reads()).toBe(1);
    // Another process changed it: seen once the TTL has passed, not before.
    await inner.setSetting("k", 2);
    clock.advance(999);
    expect(await cached.getSetting("k")).toBe(1);
    clock.advance(1);
    expect(await cached.getSetting("k")).toBe(2);
    expect(reads()).toBe(2);
  });

  it("sees its own writes and deletes at once", async () => {
    const clock = new FakeClock(0);
    const { store } = countingStore();
    const cached = cachingSettingsStore(store, { clock });
    expect(await cached.getSetting("k")).toBeUndefined();
    await cached.setSetting("k", { on: true });
    expect(await cached.getSetting("k")).toEqual({ on: true });
    await cached.deleteSetting("k");
    expect(await cached.getSetting("k")).toBeUndefined();
  });

  it("does not remember a failed read", async () => {
    const clock = new FakeClock(0);
    let fail = true;
    const inner = createMemorySettingsStore();
    const cached = cachingSettingsStore(
      {
        ...inner,
        getSetting: (key) => (fail ? Promise.reject(new Error("db down")) : inner.getSetting(key)),
      },
      { clock },
    );
    await expect(cached.getSetting("k")).rejects.toThrow("db down");
    fail = false;
    expect(await cached.getSetting("k")).toBeUndefined();
  });
});
