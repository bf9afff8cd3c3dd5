import { defineConfig } from "vitest/config";
import { sourceConditions } from "./vitest.shared.ts";

// The root run: every package's project, plus the repo-level tests (topology). Verbose, so a CI
// log shows each test by name; the JSON file feeds the pass/fail summary of .ci/run.
export default defineConfig({
  ...sourceConditions,
  test: {
    reporters: ["verbose", ["json", { outputFile: ".tmp/vitest-results.json" }]],
    projects: [
      "packages/*",
      "apps/*",
      { ...sourceConditions, test: { name: "repo", include: ["test/**/*.test.ts"] } },
    ],
  },
});
