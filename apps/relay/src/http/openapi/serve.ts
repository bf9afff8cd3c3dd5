import { createHash } from "node:crypto";
import type { Handler } from "hono";
import { buildOpenApiDocument } from "./document";

interface Served {
  readonly body: string;
  readonly etag: string;
}

// Built on the first request, not at start: most relays never serve it, and a test starts many.
// One per version, since the document names the version.
const built = new Map<string, Served>();

function servedFor(version: string): Served {
  let served = built.get(version);
  if (served === undefined) {
    const body = JSON.stringify(buildOpenApiDocument({ version }));
    served = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    built.set(version, served);
  }
  return served;
}

/**
 * GET /openapi.json (DESIGN §10): no token. `no-cache` with an ETag: a client revalidates and
 * gets 304 while the relay runs the same version, and the new document after an upgrade.
 */
export function openApiHandler(version: string): Handler {
  return (c) => {
    const { body, etag } = servedFor(version);
    const headers = { ETag: etag, "Cache-Control": "no-cache" };
    if (c.req.header("If-None-Match") === etag) {
      return c.body(null, 304, headers);
    }
    return c.body(body, 200, { ...headers, "Content-Type": "application/json" });
  };
}
