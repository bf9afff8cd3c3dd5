import { createHash, randomBytes } from "node:crypto";
import type { TokenSecrets } from "@oar/engine";

/**
 * Tokens with Node's crypto: the same tokens and hashes as the engine's Web Crypto default, but
 * the hash of every request's bearer is computed at once instead of through the thread pool.
 */
export const nodeTokenSecrets: TokenSecrets = {
  newToken: (kind) => `oar_${kind}_${randomBytes(32).toString("base64url")}`,
  hash: async (token) => createHash("sha256").update(token).digest("hex"),
};
