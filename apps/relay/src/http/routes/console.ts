import { Hono } from "hono";
import type { ConsoleAsset } from "../../console-assets";
import { errorResponse } from "../errors";

/**
 * The page may load only its own files and talk only to this relay: no CDN, no inline script, so
 * text an agent wrote can never run as code in the owner's browser.
 */
const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  // A new relay version's files are fetched again; an unchanged one answers from the cache.
  "Cache-Control": "no-cache",
};

/** The owner's console (`/`, `/console/<file>`): static files that use only the owner API. */
export function consoleRoutes(assets: ReadonlyMap<string, ConsoleAsset>): Hono {
  const app = new Hono();
  const serve = (asset: ConsoleAsset) =>
    new Response(asset.body, { headers: { "Content-Type": asset.type, ...SECURITY_HEADERS } });
  app.get("/", (c) => {
    const page = assets.get("index.html");
    return page === undefined
      ? errorResponse(c, "REMOTE_RELAY_NOT_FOUND", "This relay was built without its console.")
      : serve(page);
  });
  app.get("/console/:file", (c) => {
    const file = c.req.param("file");
    const asset = file === "index.html" ? undefined : assets.get(file);
    return asset === undefined
      ? errorResponse(c, "REMOTE_RELAY_NOT_FOUND", `No console file ${file} on this relay.`)
      : serve(asset);
  });
  return app;
}
