import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MIGRATIONS_FOLDER } from "./migrations-folder";

/** Where drizzle's migrator records what it applied (its defaults, which this package keeps). */
const APPLIED_TABLE = "drizzle.__drizzle_migrations";

/** The migrations this package ships, oldest first, by their tag (drizzle-kit's journal). */
export async function knownMigrations(): Promise<string[]> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    readonly entries: readonly { readonly tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}

/** How many migrations a database recorded as applied; 0 when it has no record of any. */
export async function countApplied(
  query: (text: string) => Promise<readonly { n: number }[]>,
): Promise<number> {
  const [exists] = await query(`select (to_regclass('${APPLIED_TABLE}') is not null)::int as n`);
  if (Number(exists?.n ?? 0) === 0) {
    return 0;
  }
  const [row] = await query(`select count(*)::int as n from ${APPLIED_TABLE}`);
  return Number(row?.n ?? 0);
}
