import type { Logger } from "@oar/core";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes, routePath } from "hono/route";
import type { RequestReport } from "../../metrics/relay-metrics";

/** Probes a balancer or Prometheus makes every few seconds: logged at debug, not info. */
const PROBES = new Set(["/healthz", "/metrics"]);

/**
 * The pattern of the route that answered (`/v1/owner/sessions/:id`), so a metric's labels stay a
 * known set; `unmatched` for a 404 no route gave (only middleware ran).
 */
function routeOf(c: Context): string {
  const index = c.req.routeIndex;
  if (c.res.status === 404 && matchedRoutes(c)[index]?.method === "ALL") {
    return "unmatched";
  }
  return routePath(c, index) || "unmatched";
}

/**
 * Each request logged once, when its response's head is ready (a long wait or an event stream
 * goes on after it): request id, method, path (never the query, where a client might put a
 * secret), status and milliseconds; and told to the metrics. After the request id middleware.
 */
export function requestLog(options: {
  readonly logger: Logger;
  readonly observe?: (request: RequestReport) => void;
}): MiddlewareHandler {
  const { logger, observe } = options;
  return async (c, next) => {
    const began = performance.now();
    await next();
    const ms = performance.now() - began;
    const { status } = c.res;
    const path = c.req.path;
    const fields = {
      requestId: c.get("requestId"),
      method: c.req.method,
      path,
      status,
      durationMs: Math.round(ms * 10) / 10,
    };
    if (status >= 500) {
      logger.warn("http request", fields);
    } else if (PROBES.has(path)) {
      logger.debug("http request", fields);
    } else {
      logger.info("http request", fields);
    }
    observe?.({ method: c.req.method, route: routeOf(c), status, seconds: ms / 1000 });
  };
}
