import { defineProject } from "vitest/config";
import { sourceConditions } from "../../vitest.shared.ts";

// The engine's tests keep no state between files (each makes its own stores and engine): a worker
// runs its files in one module graph instead of loading the engine again for each (52 s → 9 s).
export default defineProject({ ...sourceConditions, test: { name: "engine", isolate: false } });
