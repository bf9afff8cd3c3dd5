import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/testing/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  platform: "neutral",
  target: "node20",
  // ./testing holds contract suites that run inside the caller's vitest, never a bundled copy.
  external: ["vitest"],
});
