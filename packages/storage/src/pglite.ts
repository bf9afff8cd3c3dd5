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

// An in-memory database (tests) starts from a copy of one already migrated in this process:
// restoring it takes a fraction of what creating and migrating a fresh one does.
let migratedTemplate: Promise<Blob> | undefined;

function inMemoryTemplate(): Promise<Blob> {
  migratedTemplate ??= (async () => {
    const client = await PGlite.create();
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      return await client.dumpDataDir("none");
    } finally {
      await client.close();
    }
  })();
  migratedTemplate.catch(() => {
    migratedTemplate = undefined;
  });
  return migratedTemplate;
}

/** Opens (creating if needed) the embedded PGlite database and brings its schema up to date. */
export async function openPgliteStorage(config: Omit<PgliteStorageConfig, "driver">): Promise<Storage> {
  const inMemory = config.dataDir.startsWith(IN_MEMORY);
  const lock: DataDirLock | null = inMemory ? null : await acquireDataDirLock(config.dataDir);
  let client: PGlite | undefined;
  try {
    client = inMemory
      ? await PGlite.create({ loadDataDir: await inMemoryTemplate() })
      : await PGlite.create(join(resolve(config.dataDir), "pgdata"));
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
