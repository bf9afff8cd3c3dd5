import { FakeClock } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import { patchSettings, readSettings } from "../src/settings/settings";
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

  it("a patch merges into the row as stored now, not the copy it cached: another process's change a moment ago stays", async () => {
    const clock = new FakeClock(0);
    const { store, inner } = countingStore();
    const cached = cachingSettingsStore(store, { clock });
    expect((await readSettings(cached)).maxTurnSeconds).toBe(3600);
    // Another process patched another field within the cache's second.
    await patchSettings(inner, { quietAfterMinutes: 30 });
    const patched = await patchSettings(cached, { maxTurnSeconds: 600 });
    expect(patched).toMatchObject({ maxTurnSeconds: 600, quietAfterMinutes: 30 });
    expect(await readSettings(inner)).toEqual(patched);
    expect(await readSettings(cached)).toEqual(patched);
  });

  it("forgets a key once it was added to or updated", async () => {
    const clock = new FakeClock(0);
    const { store } = countingStore();
    const cached = cachingSettingsStore(store, { clock });
    expect(await cached.getSetting("usage")).toBeUndefined();
    await cached.addToSetting("usage", { turns: 1 });
    expect(await cached.getSetting("usage")).toEqual({ turns: 1 });
    await cached.updateSetting("usage", () => ({ turns: 5 }));
    expect(await cached.getSetting("usage")).toEqual({ turns: 5 });
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
