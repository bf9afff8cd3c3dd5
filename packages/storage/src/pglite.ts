import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MIGRATIONS_FOLDER } from "./migrations-folder";
import { acquireDataDirLock, type DataDirLock } from "./pid-lock";
import { closeOnce, type PgliteStorageConfig, type Storage } from "./storage";
import { createStores } from "./stores";
import { toStorageError } from "./stores/guard";

const IN_MEMORY = "memory://";

/** Opens (creating if needed) the embedded PGlite database and brings its schema up to date. */
export async function openPgliteStorage(config: Omit<PgliteStorageConfig, "driver">): Promise<Storage> {
  const inMemory = config.dataDir.startsWith(IN_MEMORY);
  const lock: DataDirLock | null = inMemory ? null : await acquireDataDirLock(config.dataDir);
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(inMemory ? config.dataDir : join(resolve(config.dataDir), "pgdata"));
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const opened = client;
    return {
      driver: "pglite",
      db,
      stores: createStores(db),
      close: closeOnce(async () => {
        try {
          await opened.close();
        } finally {
          await lock?.release();
        }
      }),
    };
  } catch (cause) {
    await client?.close().catch(() => {});
    await lock?.release();
    throw toStorageError(`Opening the database in ${config.dataDir}`, cause);
  }
}
