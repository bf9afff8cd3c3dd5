import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, check, timestamp } from "drizzle-orm/pg-core";

/**
 * Every instant is a `timestamp with time zone`, written from the caller's Clock: no column
 * defaults to `now()`, so tests with a fake clock control every time the database holds.
 */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Insertion order, for ordering rows created in the same millisecond and for event cursors. */
export const sequence = () => bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity();

/**
 * Builds the tuple of a column's allowed values; it only compiles when the tuple lists every
 * member of `T`, so the CHECK constraint and the port's union cannot drift apart.
 */
export function valuesOf<T extends string>() {
  return <const V extends readonly T[]>(
    values: V & ([T] extends [V[number]] ? unknown : { readonly missing: Exclude<T, V[number]> }),
  ): V => values;
}

/** A CHECK constraint that keeps a text column inside its tuple of values. */
export function oneOf(name: string, column: AnyPgColumn, values: readonly string[]) {
  const list: SQL = sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", "));
  return check(name, sql`${column} in (${list})`);
}
