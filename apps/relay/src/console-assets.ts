import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One file of the owner's console, read once when the relay starts. */
export interface ConsoleAsset {
  readonly body: string;
  readonly type: string;
}

const TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

// The console's files sit beside src/ and dist/ alike (apps/relay/console), so the bundled CLI
// and the sources find them at the same place; nothing is built at run time.
const CONSOLE_DIR = fileURLToPath(new URL("../console/", import.meta.url));

/** The console's files by name (`index.html`, `app.js`, …). */
export function loadConsoleAssets(dir: string = CONSOLE_DIR): ReadonlyMap<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[name.slice(name.lastIndexOf(".") + 1)];
    if (type !== undefined) {
      assets.set(name, { body: readFileSync(`${dir}${name}`, "utf8"), type });
    }
  }
  return assets;
}
