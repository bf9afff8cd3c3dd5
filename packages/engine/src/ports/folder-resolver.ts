/**
 * The filesystem as far as a session's folder goes (DESIGN §7): the engine checks a folder against
 * the allowed roots after following its symlinks, so a link inside a root that points outside it
 * cannot carry a session out. apps/relay implements it with node:fs; tests map paths by hand.
 *
 * Synchronous on purpose: it is one realpath per call on the checked path, and the folder checks
 * stay plain functions that run before anything is written.
 */
export interface FolderResolver {
  /**
   * The absolute path with every symlink followed, or `null` when it cannot be followed there:
   * nothing exists at that path yet, or it is not reachable. The engine then resolves the
   * longest ancestor that does resolve and appends the rest.
   */
  realpath(path: string): string | null;
}

/** Every path is its own real path (no symlinks): the default without a filesystem. */
export const identityFolderResolver: FolderResolver = { realpath: (path) => path };
