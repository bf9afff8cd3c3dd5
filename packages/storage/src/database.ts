import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/** A drizzle database on either driver (or a transaction of one): what every store is built on. */
export type Database = PgDatabase<PgQueryResultHKT>;
