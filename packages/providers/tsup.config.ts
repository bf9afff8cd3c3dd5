import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

export default defineConfig(packageBuild(["src/index.ts", "src/testing/index.ts"], "node"));
