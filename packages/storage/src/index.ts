import * as tables from "./tables";

export type { Database } from "./database";
export { databaseAnswers } from "./database-answers";
export { type MigrationStatus, migrationStatus } from "./migration-status";
export { MIGRATIONS_FOLDER } from "./migrations-folder";
export { openStorage } from "./open-storage";
export { acquireDataDirLock, type DataDirLock, dataDirHolder, LOCK_FILE_NAME } from "./pid-lock";
export { type RelayGauges, readRelayGauges } from "./relay-gauges";
export type { StatementListener } from "./statements";
export type {
  PgliteStorageConfig,
  PostgresStorageConfig,
  Storage,
  StorageConfig,
  StorageDriver,
} from "./storage";
export { createStores, type ForeignEventsHint, type StoreDeadlines, type Stores } from "./stores";
export type { StoreCallListener } from "./stores/guard";
/** The drizzle tables, for stores written outside this package and for ad-hoc queries. */
export { tables };
