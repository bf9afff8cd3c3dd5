import { cp, rm } from "node:fs/promises";
import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.shared.ts";

// The app installs as one package (`npm install -g @oar/relay`): the workspace's libraries are
// bundled into it, their declarations too, and so is postgres.js with the patch the workspace
// applies to it (patches/); their other dependencies are the app's. The storage's migrations are
// found beside the bundle (`../drizzle`, as in @oar/storage), so they are copied next to dist.
export default defineConfig(
  packageBuild(["src/index.ts", "src/cli.ts"], "node", {
    noExternal: [/^@oar\//, "postgres"],
    dts: { resolve: [/^@oar\//], compilerOptions: { customConditions: [] } },
    async onSuccess() {
      await rm("drizzle", { recursive: true, force: true });
      await cp("../../packages/storage/drizzle", "drizzle", {
        recursive: true,
        filter: (path) => !path.endsWith("_snapshot.json"),
      });
    },
  }),
);
