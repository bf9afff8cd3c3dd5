import { realpathSync } from "node:fs";
import type { FolderResolver } from "@oar/engine";

/**
 * The engine's folder port on this machine's disk: realpath(3), so a symlink inside an allowed
 * root that points outside it is seen for what it is (DESIGN §7). A path that does not resolve —
 * missing, unreadable, a symlink loop — is `null`, and the engine follows its longest ancestor
 * that does.
 */
export function createFolderResolver(): FolderResolver {
  return {
    realpath(path) {
      try {
        return realpathSync.native(path);
      } catch {
        return null;
      }
    },
  };
}
