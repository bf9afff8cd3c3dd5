import { defineConfig } from "vitest/config";
import { sourceConditions } from "./vitest.shared";

// The root run: every package's project, plus the repo-level tests (topology).
export default defineConfig({
  ...sourceConditions,
  test: {
    projects: [
      "packages/*",
      "apps/*",
      { ...sourceConditions, test: { name: "repo", include: ["test/**/*.test.ts"] } },
    ],
  },
});
