import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../database";

// Ports speak epoch milliseconds (Clock.now()); columns hold `timestamptz` as Date.

export function toMs(date: Date): number {
  return date.getTime();
}

export function toMsOrNull(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}

export function toDate(ms: number): Date {
  return new Date(ms);
}

/**
 * An instant bound inside raw SQL. It goes as ISO text with a cast because drizzle's postgres.js
 * driver turns off the driver's own Date serializer, so a bare Date parameter would fail there.
 */
export function instantParam(ms: number): SQL {
  return sql`${isoInstant(ms)}::timestamptz`;
}

/** Maps the first row, or gives null when there is none. */
export function mapFirst<R, T>(rows: readonly R[], map: (row: R) => T): T | null {
  const row = rows[0];
  return row === undefined ? null : map(row);
}

/**
 * A correlated `count(*)` to use as a select field. It is built as a query, not raw SQL: drizzle
 * leaves the columns in a single-table select's fields unqualified, which would bind the outer
 * table's columns to the inner one.
 */
export function countWhere(db: Database, table: PgTable, where: SQL | undefined): SQL<number> {
  const counted = db.select({ n: sql`count(*)::int` }).from(table).where(where);
  return sql<number>`(${counted})`.mapWith(Number);
}

/**
 * `jsonb_to_recordset($1) as <alias>(<columns>)`: many rows bound as one jsonb parameter. The hot
 * bulk writes of the event dispatcher (a hundred watchers in one statement) use it: one parameter
 * is parsed, planned and bound in microseconds, where a hundred rows of VALUES bind hundreds.
 * `columns` is fixed SQL of this package (`id text, at timestamptz`); instants go as ISO text.
 */
export function recordset(alias: string, columns: string, rows: readonly Record<string, unknown>[]): SQL {
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${sql.raw(alias)}(${sql.raw(columns)})`;
}

/** An instant as the ISO text a `timestamptz` column of a recordset reads. */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * `<column> = any('{…}'::text[])`: membership in a list of ids bound as one parameter. drizzle's
 * `inArray` binds one parameter per id; for the dispatcher's lists of a hundred watchers that was
 * most of the relay's work per statement (building, typing and binding each one), not Postgres'.
 */
export function inList(column: SQL | AnyColumn, values: readonly string[]): SQL {
  return sql`${column} = any(${textArray(values)}::text[])`;
}

/** A Postgres array literal of text values: each quoted, its quotes and backslashes escaped. */
export function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}
