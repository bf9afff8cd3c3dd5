import { RelayError } from "@oar/core";
import { normalizeFolder } from "../actions/folders";

function isUnder(path: string, root: string): boolean {
  return root === "/" || path === root || path.startsWith(`${root}/`);
}

/**
 * The folder a session works in (DESIGN §7): it must lie under one of the owner's allowed roots
 * when the relay has some, and defaults to the first of them. Absent roots: any absolute folder.
 */
export function resolveCwd(
  allowedRoots: readonly string[] | undefined,
  cwd: string | undefined,
): string | null {
  const roots = (allowedRoots ?? []).map((root) => normalizeFolder(root) ?? root);
  if (cwd === undefined) {
    return roots[0] ?? null;
  }
  const path = normalizeFolder(cwd);
  if (path === null) {
    throw new RelayError("REMOTE_RELAY_INVALID_INPUT", `cwd must be an absolute folder (got "${cwd}").`);
  }
  if (roots.length > 0 && !roots.some((root) => isUnder(path, root))) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `cwd "${cwd}" is not a folder this relay may use. Allowed: ${roots.join(", ")}.`,
    );
  }
  return path;
}
