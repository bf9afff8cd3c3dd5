import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { MIGRATIONS_FOLDER } from "./migrations-folder";
import { closeOnce, type PostgresStorageConfig, type Storage } from "./storage";
import { createStores } from "./stores";
import { toStorageError } from "./stores/guard";

const CLOSE_TIMEOUT_SECONDS = 5;

// Postgres prints NOTICEs (e.g. "schema already exists, skipping") on every migration run.
const quiet = { onnotice: () => {} };

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = "***";
    }
    return parsed.toString();
  } catch {
    return "(an unparsable DATABASE_URL)";
  }
}

/**
 * Several relay processes may start at once on one database: the migrations run on a single
 * connection holding an advisory lock, so one process migrates while the others wait and then
 * find nothing left to do. Closing the connection releases the lock.
 */
async function migrateOnce(url: string): Promise<void> {
  const client = postgres(url, { ...quiet, max: 1 });
  try {
    await client`select pg_advisory_lock(hashtext('oar-relay:migrations'))`;
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end({ timeout: CLOSE_TIMEOUT_SECONDS });
  }
}

/** Connects a postgres.js pool to the database and brings its schema up to date. */
export async function openPostgresStorage(config: Omit<PostgresStorageConfig, "driver">): Promise<Storage> {
  try {
    await migrateOnce(config.url);
  } catch (cause) {
    throw toStorageError(`Opening the database at ${redact(config.url)}`, cause);
  }
  const client = postgres(config.url, { ...quiet, max: config.maxConnections ?? 10 });
  const db = drizzle({ client });
  return {
    driver: "postgres",
    db,
    stores: createStores(db),
    close: closeOnce(() => client.end({ timeout: CLOSE_TIMEOUT_SECONDS })),
  };
}
