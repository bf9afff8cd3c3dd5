import type { JsonValue, SettingsStore } from "@oar/engine";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../database";
import { settings } from "../tables";

// The row being changed, as ON CONFLICT DO UPDATE sees it (the new one is `excluded`).
const STORED = sql`"settings"."value"`;

/**
 * The stored object with each delta added to its field, in float8 (IEEE doubles, as the memory
 * store and JavaScript add): a field missing or not a number counts as 0, a value not an object
 * as `{}`. Postgres itself refuses a sum past the largest double.
 */
function addedTo(deltas: Readonly<Record<string, number>>): SQL {
  const fields = Object.entries(deltas).map(
    ([field, delta]) =>
      sql`${field}::text, (case when jsonb_typeof(${STORED} -> ${field}::text) = 'number'
        then (${STORED} ->> ${field}::text)::float8 else 0 end) + ${delta}::float8`,
  );
  return sql`(case when jsonb_typeof(${STORED}) = 'object' then ${STORED} else '{}'::jsonb end)
    || jsonb_build_object(${sql.join(fields, sql`, `)})`;
}

/** A jsonb number holds no NaN or infinity (float8 would store "NaN" as a string). */
function refuseNonFinite(deltas: Readonly<Record<string, number>>): void {
  for (const [field, delta] of Object.entries(deltas)) {
    if (!Number.isFinite(delta)) {
      throw new Error(`value out of range: ${field} + ${delta} is not a finite number`);
    }
  }
}

/** The key's value, its row locked to the transaction's end. */
async function heldValue(tx: Database, key: string): Promise<JsonValue> {
  const [row] = await tx
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, key))
    .for("update");
  return row?.value ?? null;
}

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

    async addToSetting(key, deltas) {
      refuseNonFinite(deltas);
      await db
        .insert(settings)
        .values({ key, value: deltas })
        .onConflictDoUpdate({ target: settings.key, set: { value: addedTo(deltas) } });
    },

    async updateSetting(key, update) {
      return db.transaction(async (tx) => {
        // A key never set gets its row now, held by this transaction: a second process's update
        // of the same key waits for it instead of inserting beside it.
        const created = await tx
          .insert(settings)
          .values({ key, value: null })
          .onConflictDoNothing()
          .returning({ key: settings.key });
        const stored = created.length > 0 ? undefined : await heldValue(tx, key);
        const [written] = await tx
          .update(settings)
          .set({ value: update(stored) })
          .where(eq(settings.key, key))
          .returning({ value: settings.value });
        return written?.value ?? null;
      });
    },
  };
}
