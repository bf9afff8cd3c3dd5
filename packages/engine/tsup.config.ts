import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

// ./testing holds contract suites that run inside the caller's vitest, never a bundled copy.
export default defineConfig(
  packageBuild(["src/index.ts", "src/testing/index.ts"], "node", { external: ["vitest"] }),
);
