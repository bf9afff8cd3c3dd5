import { defineConfig } from "vitest/config";
import { engineSuiteProjects } from "./packages/storage/vitest.engine-suites.ts";
import { sourceConditions } from "./vitest.shared.ts";

// The root run: every package's project, the engine's suites again on PGlite and Postgres, plus
// the repo-level tests (topology). Verbose, so a CI log shows each test by name; the JSON file
// feeds the pass/fail summary of .ci/run. Two files at a time: most of the time goes to relay
// processes starting and stopping, not to the CPU, and vitest's default on a 2-core machine runs
// one file at a time.
export default defineConfig({
  ...sourceConditions,
  test: {
    maxWorkers: 2,
    reporters: ["verbose", ["json", { outputFile: ".tmp/vitest-results.json" }]],
    projects: [
      "packages/*",
      "apps/*",
      ...engineSuiteProjects,
      { ...sourceConditions, test: { name: "repo", include: ["test/**/*.test.ts"] } },
    ],
  },
});
