import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

const TOKEN_FILE = "owner-token";

/** Where the relay keeps the owner token it made (when RELAY_OWNER_TOKEN does not set one). */
export function ownerTokenPath(dataDir: string): string {
  return join(dataDir, TOKEN_FILE);
}

function newOwnerToken(): string {
  return `oar_owner_${randomBytes(24).toString("base64url")}`;
}

/**
 * Replaces the kept owner token with a new one (`oar-relay token --rotate`): written beside and
 * renamed over the old, so a relay starting meanwhile reads one whole token.
 */
export async function rotateOwnerToken(dataDir: string): Promise<string> {
  const token = newOwnerToken();
  const path = ownerTokenPath(dataDir);
  await mkdir(dataDir, { recursive: true });
  await writeFile(`${path}.new`, `${token}\n`, { mode: 0o600 });
  await rename(`${path}.new`, path);
  return token;
}

/**
 * RELAY_OWNER_TOKEN when set; otherwise a token generated on first start and kept in the data
 * directory (readable by the owner only), so restarts keep it (DESIGN §4).
 */
export async function resolveOwnerToken(options: {
  configured?: string;
  dataDir: string;
}): Promise<{ token: string; source: "env" | "file" | "generated" }> {
  if (options.configured) {
    return { token: options.configured, source: "env" };
  }
  const path = ownerTokenPath(options.dataDir);
  try {
    const kept = (await readFile(path, "utf8")).trim();
    if (kept.length >= 16) {
      return { token: kept, source: "file" };
    }
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "ENOENT") {
      throw cause;
    }
  }
  const token = newOwnerToken();
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return { token, source: "generated" };
}
