import type { EngineDeps } from "../engine";
import { refuse } from "./refusal";

/** `/a/./b/../c/` → `/a/c`; `null` for a relative path. */
export function normalizeFolder(path: string): string | null {
  if (!path.startsWith("/")) {
    return null;
  }
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") {
      continue;
    }
    if (part === "..") {
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return `/${parts.join("/")}`;
}

function isUnder(folder: string, root: string): boolean {
  const base = normalizeFolder(root);
  return base !== null && (folder === base || folder.startsWith(base === "/" ? "/" : `${base}/`));
}

/** Whether sessions may work in that folder (DESIGN §7: under the owner's allowed roots, when set). */
export function isAllowedFolder(deps: EngineDeps, folder: string): boolean {
  const normalized = normalizeFolder(folder);
  const roots = deps.allowedRoots;
  return normalized !== null && (roots === undefined || roots.some((root) => isUnder(normalized, root)));
}

/** The folder as it will be stored; refused (REMOTE_RELAY_INVALID_INPUT) when the relay may not use it (R-UPD-21). */
export function checkFolder(deps: EngineDeps, cwd: string, nothing: string): string {
  const normalized = normalizeFolder(cwd);
  if (normalized === null) {
    refuse("REMOTE_RELAY_INVALID_INPUT", `cwd must be an absolute path (got "${cwd}"). ${nothing}`);
  }
  if (!isAllowedFolder(deps, normalized)) {
    const roots = deps.allowedRoots ?? [];
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `cwd "${cwd}" is outside the folders relay "${deps.relay.name}" may use: ${roots.join(", ")}. ${nothing}`,
    );
  }
  return normalized;
}

/** The relay's default folder: its first allowed root (R-RINFO-01). */
export function defaultFolder(deps: EngineDeps): string | null {
  return deps.allowedRoots?.[0] ?? null;
}
