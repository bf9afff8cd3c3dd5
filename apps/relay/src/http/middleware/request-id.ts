import type { IdGenerator } from "@oar/core";
import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";

/** Every request gets a `req_…` id (X-Request-Id), which INTERNAL errors quote and logs carry. */
export function relayRequestId(ids: IdGenerator): MiddlewareHandler {
  return requestId({ generator: () => ids.next("request") });
}
