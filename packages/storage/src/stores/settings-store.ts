import type { JsonValue, SettingsStore } from "@oar/engine";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../database";
import { settings } from "../tables";

export function createSettingsStore(db: Database): SettingsStore {
  return {
    async getSetting(key) {
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      return row === undefined ? undefined : (row.value ?? null);
    },

    async setSetting(key, value) {
      await db
        .insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
    },

    async listSettings() {
      const rows = await db.select().from(settings);
      const all: Record<string, JsonValue> = {};
      for (const row of rows) {
        all[row.key] = row.value ?? null;
      }
      return all;
    },

    async deleteSetting(key) {
      const rows = await db.delete(settings).where(eq(settings.key, key)).returning({ key: settings.key });
      return rows.length > 0;
    },
  };
}
