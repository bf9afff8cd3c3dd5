// The engine's own suites (actions, runtime, owner, watching, …) on this package's stores: the
// project that includes them (vitest.engine-suites.ts) provides which database, and each test's
// harness takes its stores from here instead of memory.
import type { EngineStores } from "@oar/engine";
import { type TestStoresSource, useTestStores } from "@oar/engine/testing";
import { afterAll, beforeEach, inject } from "vitest";
import type { Storage } from "../../src";
import { emptyTables, pgliteDatabase, postgresDatabase, type TestDatabase } from "../databases";

declare module "vitest" {
  export interface ProvidedContext {
    engineSuitesOn: "pglite" | "postgres";
  }
  export interface TaskMeta {
    /** Which database the engine's suite ran on (CI counts each leg's tests in the JSON report). */
    engineSuiteOn?: "pglite" | "postgres";
  }
}

interface Pooled {
  readonly storage: Storage;
  readonly dispose: () => Promise<void>;
  inUse: boolean;
}

/**
 * A test takes a database of the pool (emptied first: cheaper than a new one), or opens one more
 * when all are taken (two relays in one test); the test file's end closes and drops them.
 */
function pooledSource(database: TestDatabase): TestStoresSource {
  const pool: Pooled[] = [];
  afterAll(async () => {
    for (const entry of pool.splice(0)) {
      await entry.storage.close();
      await entry.dispose();
    }
  });
  return {
    name: database.name,
    async open() {
      let entry = pool.find((candidate) => !candidate.inUse);
      if (entry === undefined) {
        const created = await database.create();
        const { openStorage } = await import("../../src");
        entry = { storage: await openStorage(created.config), dispose: created.dispose, inUse: true };
        pool.push(entry);
      } else {
        entry.inUse = true;
        await emptyTables(entry.storage);
      }
      return entry.storage.stores as EngineStores;
    },
    async release(stores) {
      const entry = pool.find((candidate) => candidate.storage.stores === stores);
      if (entry !== undefined) {
        entry.inUse = false;
      }
    },
  };
}

const database = inject("engineSuitesOn") === "postgres" ? postgresDatabase : pgliteDatabase;
beforeEach(({ task }) => {
  task.meta.engineSuiteOn = database.name;
});
if (database.available) {
  useTestStores(pooledSource(database));
} else {
  // No Postgres to run on (TEST_DATABASE_URL unset): the suites are reported skipped, not run on memory.
  beforeEach((context) => context.skip("no Postgres: set TEST_DATABASE_URL"));
}
