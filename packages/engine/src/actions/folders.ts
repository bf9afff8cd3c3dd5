import type { EngineDeps } from "../ports/engine-deps";
import { allowedRoots, isInsideRoots, resolveFolder, resolverOf } from "../settings/allowed-folders";
import { refuse } from "./refusal";

function rootsText(roots: readonly string[]): string {
  if (roots.length === 0) {
    return "none";
  }
  return roots.length === 1
    ? `${roots[0]}, or a folder below it`
    : `${roots.join(", ")}, or a folder below one of them`;
}

/**
 * The folder as it will be stored: its real path (DESIGN §7). A relative path, or a folder the
 * relay may not use (R-UPD-14, R-UPD-21), is refused with REMOTE_RELAY_INVALID_INPUT before any
 * card and before anything is written.
 */
export function checkFolder(deps: EngineDeps, cwd: string, nothing: string): string {
  const resolved = resolveFolder(resolverOf(deps), cwd);
  if (resolved === null) {
    refuse("REMOTE_RELAY_INVALID_INPUT", `cwd must be an absolute path (got "${cwd}"). ${nothing}`);
  }
  if (!isInsideRoots(deps, resolved)) {
    const resolvedNote = resolved === cwd ? "" : ` (it resolves to "${resolved}")`;
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `cwd "${cwd}"${resolvedNote} is a folder relay "${deps.relay.name}" may not use. The folder must be one that the relay is allowed to use: ${rootsText(allowedRoots(deps) ?? [])}. ${nothing}`,
    );
  }
  return resolved;
}

/** The relay's default folder: its first allowed root (R-RINFO-01). */
export function defaultFolder(deps: EngineDeps): string | null {
  return allowedRoots(deps)?.[0] ?? null;
}
