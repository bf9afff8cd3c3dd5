import { type Clock, createTtlCache } from "@oar/core";
import type { JsonValue } from "../ports/json";
import type { SettingsStore } from "../ports/settings-store";

/** How long another relay process's settings change may take to be seen here (DESIGN §9). */
export const SETTINGS_CACHE_MS = 1_000;

/**
 * Every relay_tool call reads the owner's settings; they change a few times a day. Reads are
 * served from memory for `ttlMs`; a change made through this store is seen at once.
 */
export function cachingSettingsStore(
  store: SettingsStore,
  options: { readonly clock: Clock; readonly ttlMs?: number },
): SettingsStore & { forgetAll(): void } {
  const cache = createTtlCache<string, JsonValue | undefined>({
    clock: options.clock,
    ttlMs: options.ttlMs ?? SETTINGS_CACHE_MS,
  });
  return {
    getSetting: (key) => cache.get(key, () => store.getSetting(key)),
    async setSetting(key, value) {
      cache.delete(key);
      await store.setSetting(key, value);
      cache.delete(key);
    },
    async deleteSetting(key) {
      cache.delete(key);
      const deleted = await store.deleteSetting(key);
      cache.delete(key);
      return deleted;
    },
    async addToSetting(key, deltas) {
      cache.delete(key);
      await store.addToSetting(key, deltas);
      cache.delete(key);
    },
    // The store reads the held value itself, never this cache's: a value cached here may be a
    // second old, and an update made from it would undo another process's change.
    async updateSetting(key, update) {
      cache.delete(key);
      const written = await store.updateSetting(key, update);
      cache.delete(key);
      return written;
    },
    listSettings: () => store.listSettings(),
    forgetAll: () => cache.clear(),
  };
}
