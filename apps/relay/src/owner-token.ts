import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const TOKEN_FILE = "owner-token";

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
  const path = join(options.dataDir, TOKEN_FILE);
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
  const token = `oar_owner_${randomBytes(24).toString("base64url")}`;
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return { token, source: "generated" };
}
