import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on the env's PATH; relative PATH entries are skipped (they depend on a cwd). */
function findOnPath(name: string, env: Readonly<Record<string, string | undefined>>): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (isAbsolute(dir) && isExecutableFile(join(dir, name))) {
      return join(dir, name);
    }
  }
  return null;
}

/** Where the `claude` CLI is on the env's PATH, or `null` when it is not installed there. */
export function findClaudeBinary(env: Readonly<Record<string, string | undefined>>): string | null {
  return findOnPath("claude", env);
}

/**
 * The CLI to run: an explicit `bin` (a path, or a bare name looked up on PATH), else `claude` on
 * PATH; `null` when that is not an executable file, so the providers are left out.
 */
export function resolveClaudeBinary(
  bin: string | null | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  return resolveProgram("claude", bin, env);
}

/** An agent's CLI: an explicit `bin` (a path, or a bare name looked up on PATH), else `name` on PATH. */
export function resolveProgram(
  name: string,
  bin: string | null | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (bin === undefined || bin === null || bin === "") {
    return findOnPath(name, env);
  }
  if (!bin.includes("/")) {
    return findOnPath(bin, env);
  }
  return isExecutableFile(bin) ? bin : null;
}
