import { defineConfig } from "tsup";

export default defineConfig({
  // The driver entries are also loaded on demand by openStorage; src/migrations-folder.ts is
  // bundled into files directly under dist/, where `../drizzle` still names the migrations.
  entry: ["src/index.ts", "src/pglite.ts", "src/postgres.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  platform: "node",
  target: "node20",
});
