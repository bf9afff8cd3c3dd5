import type { Options } from "tsup";

/**
 * The one build shape of every package: ESM with declarations, for Node 20. A package's
 * declarations are written against its workspace dependencies' built declarations (turbo builds
 * those first), not their sources: without the source condition, each package's declaration
 * build type-checks its own files only, instead of every package below it again.
 */
export function packageBuild(entry: string[], platform: "neutral" | "node", extra: Options = {}): Options {
  return {
    entry,
    format: ["esm"],
    dts: { compilerOptions: { customConditions: [] } },
    clean: true,
    platform,
    target: "node20",
    ...extra,
  };
}
