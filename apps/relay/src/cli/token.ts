import { access } from "node:fs/promises";
import { RelayError } from "@oar/core";
import { dataDirHolder } from "@oar/storage";
import type { RelayConfig } from "../config";
import { ownerTokenPath, rotateOwnerToken } from "../owner-token";

/** `oar-relay token [--rotate]`: where the owner token is, or a new one in its place. Returns what to print. */
export async function ownerTokenCommand(
  config: RelayConfig,
  options: { readonly rotate: boolean },
): Promise<string> {
  if (config.ownerToken !== undefined) {
    if (options.rotate) {
      throw new RelayError(
        "VALIDATION",
        "The owner token is set by RELAY_OWNER_TOKEN, not kept by the relay: change it there, then restart the relay.",
      );
    }
    return "The owner token is set by RELAY_OWNER_TOKEN (this environment), not kept in a file.";
  }
  const path = ownerTokenPath(config.dataDir);
  if (!options.rotate) {
    const kept = await access(path).then(
      () => true,
      () => false,
    );
    return kept
      ? `The owner token is kept in ${path} (readable by its owner only).`
      : `No owner token yet: the relay makes one in ${path} when it first starts.`;
  }
  const token = await rotateOwnerToken(config.dataDir);
  // The running relay compared callers against the token it read when it started.
  const holder = await dataDirHolder(config.dataDir);
  const old =
    holder === null
      ? "The old token stops working now: no relay runs on this data directory, and the next one reads the new token."
      : `The old token stops working once the relay running on this data directory (process ${holder}) restarts: restart it now.`;
  return `New owner token: ${token}\nKept in ${path}.\n${old}`;
}
