import type { FolderResolver } from "../src/ports/folder-resolver";

export interface FakeFolderLayout {
  /** Folders that exist (their ancestors exist too). */
  readonly dirs: readonly string[];
  /** Symlinks: a path → the absolute path it points to. */
  readonly links?: Readonly<Record<string, string>>;
}

/** The folder port over a made-up filesystem: realpath(3) semantics, `null` where nothing exists. */
export function fakeFolders(layout: FakeFolderLayout): FolderResolver {
  const links = layout.links ?? {};
  // A link's own folder exists, as on a disk.
  const known = [...layout.dirs, ...Object.keys(links)];
  const exists = (path: string) =>
    path === "/" || known.some((dir) => dir === path || dir.startsWith(`${path}/`));
  const realpath = (path: string, hops: number): string | null => {
    if (hops > 40) {
      return null; // ELOOP
    }
    let current = "";
    for (const part of path.split("/").filter((segment) => segment !== "")) {
      const candidate = `${current}/${part}`;
      const target = links[candidate];
      if (target !== undefined) {
        const followed = realpath(target, hops + 1);
        if (followed === null) {
          return null;
        }
        current = followed === "/" ? "" : followed;
      } else if (exists(candidate)) {
        current = candidate;
      } else {
        return null;
      }
    }
    return current === "" ? "/" : current;
  };
  return { realpath: (path) => realpath(path, 0) };
}
