import { defineProject } from "vitest/config";
import { sourceConditions } from "../../vitest.shared.ts";

// A relay on the embedded database starts in a second or two, but in several under a loaded CI
// machine: its hooks get 30 s, not vitest's 10 s. One migrated PGlite template serves the whole
// run (its global setup is storage's).
export default defineProject({
  ...sourceConditions,
  test: {
    name: "relay",
    hookTimeout: 30_000,
    globalSetup: ["../../packages/storage/test/support/migrated-template.global.ts"],
    setupFiles: ["test/support/migrated-template.setup.ts"],
  },
});
