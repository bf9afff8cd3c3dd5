import { knownMigrations } from "./migrations-applied";

export interface MigrationStatus {
  /** Migrations the database recorded as applied; null when the embedded database was never created. */
  readonly applied: number | null;
  /** The migrations this version of the relay ships, oldest first. */
  readonly known: readonly string[];
}

/**
 * How far the database's schema is, without changing anything (`oar-relay doctor`). For the
 * embedded database, the caller first makes sure no relay holds its data directory.
 */
export async function migrationStatus(
  target:
    | { readonly driver: "pglite"; readonly dataDir: string }
    | { readonly driver: "postgres"; readonly url: string },
): Promise<MigrationStatus> {
  const known = await knownMigrations();
  if (target.driver === "pglite") {
    const { pgliteMigrationsApplied } = await import("./pglite");
    return { applied: await pgliteMigrationsApplied(target.dataDir), known };
  }
  const { postgresMigrationsApplied } = await import("./postgres");
  return { applied: await postgresMigrationsApplied(target.url), known };
}
