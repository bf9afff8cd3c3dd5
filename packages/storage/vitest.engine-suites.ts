import { join } from "node:path";
import { sourceConditions } from "../../vitest.shared.ts";

// The engine's suites that drive whole calls (actions, the runtime, owner verbs, watching,
// schedules, questions, federation, tasks) run again here, on PGlite and on Postgres: a memory
// store that takes what the databases refuse, or a bug only a real store shows, fails the same
// tests. The root config lists both projects; the Postgres one needs TEST_DATABASE_URL.
const SUITES = [
  "actions",
  "runtime",
  "owner",
  "watching",
  "schedules",
  "questions",
  "federation",
  "tasks",
  "engine",
  "retention",
];

// Plain objects, not defineProject's: the root config takes them, and its vitest may be another
// install than this package's (pnpm makes one per set of peers).
const engineSuitesOn = (database: "pglite" | "postgres") => ({
  ...sourceConditions,
  root: import.meta.dirname,
  test: {
    name: `engine-on-${database}`,
    dir: join(import.meta.dirname, "..", "engine", "test"),
    include: SUITES.map((folder) => `${folder}/**/*.test.ts`),
    provide: { engineSuitesOn: database },
    // A safety net, not a speed check: on a loaded CI machine a test of many queries (thirty
    // prompts, an hour of polls) can pass vitest's default 5 s on a database.
    testTimeout: 30_000,
    // The suites keep no state between files (each test opens its stores and engine): a worker
    // runs its files in one module graph instead of loading the engine and storage for each.
    isolate: false,
    globalSetup: ["test/support/migrated-template.global.ts"],
    setupFiles: ["test/support/migrated-template.setup.ts", "test/support/engine-suites.setup.ts"],
  },
});

export const engineSuiteProjects = [engineSuitesOn("pglite"), engineSuitesOn("postgres")];
