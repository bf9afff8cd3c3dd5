import { defineConfig } from "drizzle-kit";

// `pnpm --filter @oar/storage db:generate` writes a new migration into ./drizzle after a table changes.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/tables/index.ts",
  out: "./drizzle",
  strict: true,
});
