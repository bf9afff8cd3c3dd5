import { type AnyColumn, getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
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
 * `json_to_recordset($1) as <alias>(<columns>)`: many rows bound as one json parameter. The hot
 * bulk writes of the event dispatcher (a hundred watchers in one statement) use it: one parameter
 * is parsed, planned and bound in microseconds, where a hundred rows of VALUES bind hundreds.
 * `json`, not `jsonb`: the rows are read once, and Postgres reads json text about twice as fast as
 * it builds jsonb (300 delivery rows: 2–3 ms against 5–6). `columns` is fixed SQL of this package
 * (`id text, at timestamptz`); instants go as ISO text.
 */
export function recordset(alias: string, columns: string, rows: readonly Record<string, unknown>[]): SQL {
  return sql`json_to_recordset(${JSON.stringify(rows)}::json) as ${sql.raw(alias)}(${sql.raw(columns)})`;
}

/**
 * Sets one text column of many rows, each row (found by its `key` column) to its own value, in one
 * statement.
 */
export async function setEach(
  db: Database,
  table: PgTable,
  key: AnyColumn,
  column: AnyColumn,
  rows: readonly { readonly key: string; readonly value: string }[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await db.execute(sql`
    update ${table} set ${sql.identifier(column.name)} = v.value
    from ${recordset("v", "key text, value text", rows)}
    where ${key} = v.key`);
}

let lastInstant = Number.NaN;
let lastIso = "";

/**
 * An instant as the ISO text a `timestamptz` column of a recordset reads. The last one is kept:
 * a dispatcher pass writes its own `now` in every row it makes (a hundred watchers' deliveries,
 * messages, wake-ups and session activity), and each conversion costs a microsecond.
 */
export function isoInstant(ms: number): string {
  if (ms !== lastInstant) {
    lastIso = new Date(ms).toISOString();
    lastInstant = ms;
  }
  return lastIso;
}

/** An instant read back as epoch milliseconds (a number), without a Date made and taken apart. */
export function epochMs(instant: SQL): SQL {
  return sql`(extract(epoch from ${instant}) * 1000)::float8`;
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

/** The rows of a raw query, whichever driver ran it (postgres.js gives an array, PGlite `{ rows }`). */
export async function rawRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

interface TableShape {
  readonly from: SQL;
  readonly columns: readonly (readonly [key: string, column: AnyColumn])[];
}

const shapes = new WeakMap<PgTable, TableShape>();

function shapeOf(table: PgTable): TableShape {
  let shape = shapes.get(table);
  if (shape === undefined) {
    const columns = Object.entries(getTableColumns(table)) as [string, AnyColumn][];
    const list = columns.map(([, column]) => `"${column.name}"`).join(", ");
    shape = { from: sql.raw(`select ${list} from "${getTableName(table)}"`), columns };
    shapes.set(table, shape);
  }
  return shape;
}

/**
 * `select * from <table> <rest>`, its rows as drizzle's `db.select().from(table)` gives them (each
 * column decoded by its own type). The select list is made once per table and the rows are mapped
 * in one pass: drizzle's builder and row mapper cost the dispatcher's hot reads (a hundred watchers'
 * sessions, deliveries and subscriptions) more CPU than Postgres took to answer them.
 */
export async function selectAll<T extends PgTable>(
  db: Database,
  table: T,
  rest: SQL,
): Promise<T["$inferSelect"][]> {
  const { from, columns } = shapeOf(table);
  const rows = await rawRows<Record<string, unknown>>(db, sql`${from} ${rest}`);
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  });
}

/**
 * Rows a query gave as JSON (`json_agg` of a table's rows, keys the column names) as drizzle's
 * `db.select().from(table)` gives them. A json/jsonb column is already JSON inside the row: it is
 * taken as it is (decoding it again would turn a stored JSON string into what it spells).
 */
export function fromJsonRows<T extends PgTable>(table: T, json: unknown): T["$inferSelect"][] {
  const rows = (typeof json === "string" ? JSON.parse(json) : json) as Record<string, unknown>[] | null;
  if (rows === null) {
    return [];
  }
  const { columns } = shapeOf(table);
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] =
        value === null || value === undefined
          ? null
          : column.columnType === "PgJsonb" || column.columnType === "PgJson"
            ? value
            : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  });
}
