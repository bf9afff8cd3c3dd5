import { defineProject } from "vitest/config";
import { sourceConditions } from "../../vitest.shared.ts";

// One migrated PGlite template for the whole run (test/support/migrated-template.*).
export default defineProject({
  ...sourceConditions,
  test: {
    name: "storage",
    globalSetup: ["test/support/migrated-template.global.ts"],
    setupFiles: ["test/support/migrated-template.setup.ts"],
  },
});
