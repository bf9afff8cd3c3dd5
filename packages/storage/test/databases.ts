import { getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll } from "vitest";
import { openStorage, type Storage, type StorageConfig, tables } from "../src";
import { createScratchPostgres } from "../src/testing";

/** The only place the storage tests read the environment. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

/** A database kind the suites run against; Postgres only when a URL is given. */
export interface TestDatabase {
  readonly name: "pglite" | "postgres";
  readonly available: boolean;
  /** A fresh, empty database for one test file; `dispose` removes it. */
  create(): Promise<{ readonly config: StorageConfig; dispose(): Promise<void> }>;
}

export const pgliteDatabase: TestDatabase = {
  name: "pglite",
  available: true,
  create: async () => ({ config: { driver: "pglite", dataDir: "memory://" }, dispose: async () => {} }),
};

/** A scratch database of its own for each test file (`createScratchPostgres`), dropped afterwards. */
export const postgresDatabase: TestDatabase = {
  name: "postgres",
  available: POSTGRES_URL !== undefined,
  async create() {
    if (POSTGRES_URL === undefined) {
      throw new Error("Set TEST_DATABASE_URL or DATABASE_URL to run the Postgres tests.");
    }
    const scratch = await createScratchPostgres(POSTGRES_URL);
    return { config: { driver: "postgres", url: scratch.url }, dispose: () => scratch.dispose() };
  },
};

export const testDatabases: readonly TestDatabase[] = [pgliteDatabase, postgresDatabase];

const allTables: readonly PgTable[] = Object.values(tables);
// The one-row tables the migrations fill: put back as a new database has them, not emptied.
const ONE_ROW_TABLES: ReadonlySet<PgTable> = new Set([tables.outboxHead, tables.routingCursor]);

/**
 * Empties every table, so each test starts from a blank database without paying for a new one.
 * One statement of DELETEs in CTEs: foreign keys are checked at its end, when every table is
 * empty, so no order is needed, and it is far cheaper than TRUNCATE on tables this small.
 */
export async function emptyTables(storage: Storage): Promise<void> {
  const [last, ...others] = allTables.map((table) =>
    ONE_ROW_TABLES.has(table)
      ? `update "${getTableName(table)}" set seq = 0`
      : `delete from "${getTableName(table)}"`,
  );
  const ctes = others.map((statement, i) => `d${i} as (${statement})`).join(", ");
  await storage.db.execute(sql.raw(`with ${ctes} ${last}`));
}

export interface TestStorage {
  /** The file's storage; only valid inside tests and hooks. */
  storage(): Storage;
  /** The config it was opened with, to open a second connection to the same database. */
  config(): StorageConfig;
  empty(): Promise<void>;
}

/** One database for the whole test file (call inside a describe): opened before, closed and dropped after. */
export function useTestStorage(database: TestDatabase): TestStorage {
  let opened: { storage: Storage; config: StorageConfig; dispose(): Promise<void> } | undefined;
  beforeAll(async () => {
    const created = await database.create();
    opened = { ...created, storage: await openStorage(created.config) };
  }, 60_000);
  afterAll(async () => {
    await opened?.storage.close();
    await opened?.dispose();
  });
  const current = () => {
    if (opened === undefined) {
      throw new Error("The test storage is only open inside the test file's tests.");
    }
    return opened;
  };
  return {
    storage: () => current().storage,
    config: () => current().config,
    empty: () => emptyTables(current().storage),
  };
}
