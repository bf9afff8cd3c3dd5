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
    listSettings: () => store.listSettings(),
    forgetAll: () => cache.clear(),
  };
}
