import { defineProject } from "vitest/config";
import { sourceConditions } from "../../vitest.shared.ts";

// A relay on the embedded database starts in a second or two, but in several under a loaded CI
// machine, and a hook that starts one and makes its sessions once took over 30 s beside the real
// agent CLIs' tests: hooks get 90 s, not vitest's 10 s. One migrated PGlite template serves the
// whole run (its global setup is storage's). A test gets 30 s, not vitest's 5 s, for the same
// reason: one that starts a relay took 5.4 s beside the agent CLIs' tests.
export default defineProject({
  ...sourceConditions,
  test: {
    name: "relay",
    isolate: false,
    hookTimeout: 90_000,
    testTimeout: 30_000,
    globalSetup: ["../../packages/storage/test/support/migrated-template.global.ts"],
    setupFiles: ["test/support/migrated-template.setup.ts"],
  },
});
