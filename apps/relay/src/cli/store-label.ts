import type { RelayConfig } from "../config";

/** The store as the CLI names it: the data directory, or the Postgres server without its password. */
export function storeLabel(config: RelayConfig): string {
  if (!config.databaseUrl) {
    return `PGlite in ${config.dataDir}`;
  }
  try {
    const url = new URL(config.databaseUrl);
    return `Postgres at ${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
  } catch {
    return "Postgres (DATABASE_URL)";
  }
}
