import { fileURLToPath } from "node:url";

/**
 * The SQL migrations that drizzle-kit generated into `packages/storage/drizzle`. This file sits
 * directly under `src/`, and tsup bundles it into a file directly under `dist/`, so `../drizzle`
 * is the right folder both when tests run the sources and when the built package runs.
 */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle", import.meta.url));
