import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

// The driver entries are also loaded on demand by openStorage; src/migrations-folder.ts is
// bundled into files directly under dist/, where `../drizzle` still names the migrations.
export default defineConfig(
  packageBuild(["src/index.ts", "src/pglite.ts", "src/postgres.ts", "src/testing/index.ts"], "node"),
);
