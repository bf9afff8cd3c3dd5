import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { listenForEvents } from "./foreign-events";
import { countApplied } from "./migrations-applied";
import { MIGRATIONS_FOLDER } from "./migrations-folder";
import { closeOnce, type PostgresStorageConfig, type Storage } from "./storage";
import { createStores } from "./stores";
import { toStorageError } from "./stores/guard";
import { SCHEDULES_CHANNEL } from "./stores/schedule-store";

const CLOSE_TIMEOUT_SECONDS = 5;

/**
 * How long the relay waits on the database before it answers 503 (DESIGN §4): a refused or reset
 * connection fails at once, but a frozen link never resets, so every step has a bound. The server
 * gives up on a statement, or a transaction left idle by a client that went away, a little before
 * the relay does, so a transaction the relay reports as failed is not committed behind its back.
 */
export const POSTGRES_TIMEOUTS = {
  connectSeconds: 5,
  statementMs: 5_000,
  idleInTransactionMs: 5_000,
  callMs: 6_000,
  transactionMs: 12_000,
  /** A connection unused this long is closed, so a pool never holds many links a cut left dead. */
  idleSeconds: 60,
  keepAliveSeconds: 10,
  /** The longest wait before a connection that failed is opened again (see `reconnectBackoff`). */
  reconnectMaxSeconds: 0.5,
} as const;

/**
 * Seconds before a pool connection that failed is opened again, after `retries` failures in a row
 * (postgres.js's `backoff`). postgres.js waits up to 20 s, and a query given to a connection
 * waiting so waits with it: after an outage the first queries met their 6 s deadline and the
 * relay stayed unavailable for seconds after the database was back. Refused connections cost the
 * server nothing, so the wait stops growing at half a second; the jitter keeps the pool's
 * connections from retrying in step.
 */
function reconnectBackoff(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, POSTGRES_TIMEOUTS.reconnectMaxSeconds);
}

/**
 * Options every postgres.js client here takes. Postgres prints NOTICEs ("schema already exists,
 * skipping") on every migration run. `fetch_types` is off: the relay binds no array parameter, and
 * postgres.js fetches the array types on each new connection in a promise nobody awaits, so a
 * link that dies at that moment crashed the process with an unhandled rejection.
 */
const CLIENT_OPTIONS = { onnotice: () => {}, fetch_types: false } as const;

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
  const client = postgres(url, { ...CLIENT_OPTIONS, max: 1 });
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
  const maxConnections = config.maxConnections ?? 10;
  const client = postgres(config.url, {
    ...CLIENT_OPTIONS,
    max: maxConnections,
    connect_timeout: POSTGRES_TIMEOUTS.connectSeconds,
    idle_timeout: POSTGRES_TIMEOUTS.idleSeconds,
    keep_alive: POSTGRES_TIMEOUTS.keepAliveSeconds,
    backoff: reconnectBackoff,
    ...(config.onStatement === undefined
      ? {}
      : { debug: (_connection: number, text: string) => config.onStatement?.(text) }),
    connection: {
      statement_timeout: POSTGRES_TIMEOUTS.statementMs,
      idle_in_transaction_session_timeout: POSTGRES_TIMEOUTS.idleInTransactionMs,
    },
  });
  const db = drizzle({ client });
  const foreignEvents = listenForEvents(client);
  const foreignSchedules = listenForEvents(client, SCHEDULES_CHANNEL);
  return {
    driver: "postgres",
    db,
    stores: createStores(db, {
      deadlines: { callMs: POSTGRES_TIMEOUTS.callMs, transactionMs: POSTGRES_TIMEOUTS.transactionMs },
      foreignEvents: foreignEvents.hint,
      foreignSchedules: foreignSchedules.hint,
      ...(config.onStoreCall === undefined ? {} : { onStoreCall: config.onStoreCall }),
    }),
    maxConnections,
    close: closeOnce(() => {
      foreignEvents.stop();
      foreignSchedules.stop();
      return client.end({ timeout: CLOSE_TIMEOUT_SECONDS });
    }),
  };
}

/** How many migrations the Postgres database at `url` has applied, changing nothing. */
export async function postgresMigrationsApplied(url: string): Promise<number> {
  const client = postgres(url, {
    ...CLIENT_OPTIONS,
    max: 1,
    connect_timeout: POSTGRES_TIMEOUTS.connectSeconds,
  });
  try {
    return await countApplied((text) => client.unsafe<{ n: number }[]>(text));
  } catch (cause) {
    throw toStorageError(`Reading the migrations of the database at ${redact(url)}`, cause);
  } finally {
    await client.end({ timeout: CLOSE_TIMEOUT_SECONDS });
  }
}
