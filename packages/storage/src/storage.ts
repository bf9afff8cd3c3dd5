import type { Database } from "./database";
import type { StatementListener } from "./statements";
import type { Stores } from "./stores";
import type { StoreCallListener } from "./stores/guard";

export type StorageDriver = "pglite" | "postgres";

/**
 * The embedded database. `dataDir` is the relay's data directory (RELAY_DATA_DIR): the database
 * lives in its `pgdata/` folder and `relay.pid` locks the directory to one process. A `memory://`
 * dataDir keeps everything in memory and takes no lock (tests).
 */
export interface PgliteStorageConfig {
  readonly driver: "pglite";
  readonly dataDir: string;
  /** Told each statement sent (BEGIN and COMMIT included): benchmarks and tests count them. */
  readonly onStatement?: StatementListener;
  /** Told each store call's and transaction's time (the relay's metrics). */
  readonly onStoreCall?: StoreCallListener;
}

/** A Postgres server (DATABASE_URL); several relay processes may share it. */
export interface PostgresStorageConfig {
  readonly driver: "postgres";
  readonly url: string;
  /** Pool size; default 10. */
  readonly maxConnections?: number;
  /** Told each statement sent (BEGIN and COMMIT included): benchmarks and tests count them. */
  readonly onStatement?: StatementListener;
  /** Told each store call's and transaction's time (the relay's metrics). */
  readonly onStoreCall?: StoreCallListener;
}

export type StorageConfig = PgliteStorageConfig | PostgresStorageConfig;

export interface Storage {
  readonly driver: StorageDriver;
  readonly db: Database;
  readonly stores: Stores;
  /** How many connections the driver may open to the database at most (PGlite: its one). */
  readonly maxConnections: number;
  /** Closes the database (and releases the data-dir lock); the process cannot exit before. Idempotent. */
  close(): Promise<void>;
}

/** Wraps a close function so that every call after the first waits for the same closing. */
export function closeOnce(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}
