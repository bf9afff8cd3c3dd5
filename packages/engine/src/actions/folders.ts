import type { EngineDeps } from "../engine";
import { type FolderResolver, identityFolderResolver } from "../ports/folder-resolver";
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

/**
 * The folder a session would really work in, or `null` for a relative path (DESIGN §7). `..` and
 * `.` are resolved on the text first, as a shell's `cd` does; then the symlinks of the longest
 * part that exists are followed, and the part that does not exist yet is appended as written.
 */
export function resolveFolder(resolver: FolderResolver, path: string): string | null {
  const normalized = normalizeFolder(path);
  if (normalized === null) {
    return null;
  }
  const parts = normalized.split("/").filter((part) => part !== "");
  for (let kept = parts.length; kept >= 0; kept--) {
    const real = resolver.realpath(`/${parts.slice(0, kept).join("/")}`);
    const base = real === null ? null : normalizeFolder(real);
    if (base !== null) {
      return normalizeFolder(`${base}/${parts.slice(kept).join("/")}`);
    }
  }
  return normalized;
}

function resolverOf(deps: EngineDeps): FolderResolver {
  return deps.folders ?? identityFolderResolver;
}

// The roots are resolved once per relay (the engine copies its deps, but not the roots array).
const resolvedRootsCache = new WeakMap<FolderResolver, WeakMap<readonly string[], readonly string[]>>();

/**
 * The owner's allowed roots as real paths, without repeats, in their order (the first is the
 * default folder); `undefined` when the embedder set none: any folder.
 */
export function allowedRoots(deps: EngineDeps): readonly string[] | undefined {
  const roots = deps.allowedRoots;
  if (roots === undefined) {
    return undefined;
  }
  const resolver = resolverOf(deps);
  const byRoots = resolvedRootsCache.get(resolver) ?? new WeakMap<readonly string[], readonly string[]>();
  resolvedRootsCache.set(resolver, byRoots);
  const cached = byRoots.get(roots);
  if (cached !== undefined) {
    return cached;
  }
  const resolved = [
    ...new Set(roots.map((root) => resolveFolder(resolver, root)).filter((root) => root !== null)),
  ];
  byRoots.set(roots, resolved);
  return resolved;
}

/** `/srv/app` holds `/srv/app` and `/srv/app/x`, not `/srv/app2`. */
function isUnder(folder: string, root: string): boolean {
  return folder === root || folder.startsWith(root === "/" ? "/" : `${root}/`);
}

function isInsideRoots(deps: EngineDeps, resolved: string): boolean {
  const roots = allowedRoots(deps);
  return roots === undefined || roots.some((root) => isUnder(resolved, root));
}

/** Whether sessions may work in that folder, symlinks followed (DESIGN §7, R-UPD-21). */
export function isAllowedFolder(deps: EngineDeps, folder: string): boolean {
  const resolved = resolveFolder(resolverOf(deps), folder);
  return resolved !== null && isInsideRoots(deps, resolved);
}

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
