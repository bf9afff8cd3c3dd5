import { defineConfig } from "vitest/config";
import { sourceConditions } from "./vitest.shared.ts";

// The root run: every package's project, plus the repo-level tests (topology). Verbose, so a CI
// log shows each test by name; the JSON file feeds the pass/fail summary of .ci/run. Three files at
// a time on the 2-core CI machine: most of the time goes to relay processes starting and stopping
// and to waits, not to the CPU (vitest's default there runs one file at a time).
export default defineConfig({
  ...sourceConditions,
  test: {
    maxWorkers: 3,
    reporters: ["verbose", ["json", { outputFile: ".tmp/vitest-results.json" }]],
    projects: [
      "packages/*",
      "apps/*",
      { ...sourceConditions, test: { name: "repo", include: ["test/**/*.test.ts"] } },
    ],
  },
});
