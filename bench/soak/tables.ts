import type { BenchDatabase } from "../lib/bench-database";

export interface TableSize {
  readonly rows: number;
  /** Table, indexes and TOAST (pg_total_relation_size). */
  readonly bytes: number;
}

/** Every table of the relay's schema: its exact row count and its size on disk. */
export async function tableSizes(db: BenchDatabase): Promise<Map<string, TableSize>> {
  const tables = await db.query<{ name: string; bytes: number }>(
    `select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
  );
  const sizes = new Map<string, TableSize>();
  for (const table of tables) {
    // Names come from pg_class; quoted as identifiers all the same.
    const [row] = await db.query<{ rows: number }>(
      `select count(*)::float8 as rows from "${table.name.replaceAll('"', '""')}"`,
    );
    sizes.set(table.name, { rows: row?.rows ?? 0, bytes: table.bytes });
  }
  return sizes;
}
