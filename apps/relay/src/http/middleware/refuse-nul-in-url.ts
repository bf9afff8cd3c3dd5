import { RelayError } from "@oar/core";
import { unstorableTextReason } from "@oar/schema";
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: the route reads it as it is, and so does this check.
    return segment;
  }
}

/** `id` for the route `/v1/owner/sessions/:id` and the path's segment 4; "the path" elsewhere. */
function parameterAt(c: Context, index: number): string {
  // The last matched route is the handler's; earlier ones are middleware patterns like `*`.
  const pattern = routePath(c, -1).split("/")[index] ?? "";
  const name = /^:([A-Za-z0-9_]+)/.exec(pattern)?.[1];
  return name ?? "the path";
}

/**
 * A NUL character (U+0000) in a path parameter or a query string (`%00`) is refused before any
 * route reads it, with @oar/schema's words for a body: Postgres cannot store or compare one, and
 * the lookup would fail as a bug instead of a refusal naming the parameter.
 */
export function refuseNulInUrl(): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const url = new URL(c.req.url);
    const segments = url.pathname.split("/");
    for (const [index, segment] of segments.entries()) {
      const reason = unstorableTextReason(decoded(segment));
      if (reason !== undefined) {
        throw new RelayError("REMOTE_RELAY_INVALID_INPUT", `${parameterAt(c, index)}: ${reason}`);
      }
    }
    for (const [name, value] of url.searchParams) {
      const nameReason = unstorableTextReason(name);
      if (nameReason !== undefined) {
        throw new RelayError(
          "REMOTE_RELAY_INVALID_INPUT",
          `query: the name ${JSON.stringify(name)} ${nameReason}`,
        );
      }
      const reason = unstorableTextReason(value);
      if (reason !== undefined) {
        throw new RelayError("REMOTE_RELAY_INVALID_INPUT", `${name}: ${reason}`);
      }
    }
    return next();
  });
}
