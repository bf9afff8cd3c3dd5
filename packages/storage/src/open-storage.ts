import type { Storage, StorageConfig } from "./storage";

/**
 * Opens the configured database, applies pending migrations and returns the stores. The driver
 * is loaded on demand, so a Postgres deployment never loads PGlite and the reverse.
 */
export async function openStorage(config: StorageConfig): Promise<Storage> {
  switch (config.driver) {
    case "pglite": {
      const { openPgliteStorage } = await import("./pglite");
      return openPgliteStorage(config);
    }
    case "postgres": {
      const { openPostgresStorage } = await import("./postgres");
      return openPostgresStorage(config);
    }
  }
}
