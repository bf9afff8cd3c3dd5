import type { Options } from "tsup";

/** The one build shape of every package: ESM with declarations, for Node 20. */
export function packageBuild(entry: string[], platform: "neutral" | "node", extra: Options = {}): Options {
  return { entry, format: ["esm"], dts: true, clean: true, platform, target: "node20", ...extra };
}
