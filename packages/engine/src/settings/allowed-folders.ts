import type { EngineDeps } from "../ports/engine-deps";
import { type FolderResolver, identityFolderResolver } from "../ports/folder-resolver";

// The folders sessions may use (DESIGN §7): the owner's allowed roots, symlinks followed, and
// whether a folder lies inside them. Settings show the roots; actions refuse a folder outside.

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

export function resolverOf(deps: EngineDeps): FolderResolver {
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

export function isInsideRoots(deps: EngineDeps, resolved: string): boolean {
  const roots = allowedRoots(deps);
  return roots === undefined || roots.some((root) => isUnder(resolved, root));
}

/** Whether sessions may work in that folder, symlinks followed (DESIGN §7, R-UPD-21). */
export function isAllowedFolder(deps: EngineDeps, folder: string): boolean {
  const resolved = resolveFolder(resolverOf(deps), folder);
  return resolved !== null && isInsideRoots(deps, resolved);
}
