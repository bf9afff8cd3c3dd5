import { isRelayError, type Logger, wireExtraOf } from "@oar/core";
import { type ErrorCode, type ErrorEnvelope, type ErrorExtra, errorEnvelope } from "@oar/schema";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** One HTTP status per wire code (STYLE §8): the switch fails to compile when a code is added. */
export function codeToStatus(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case "REMOTE_RELAY_INVALID_INPUT":
      return 400;
    case "REMOTE_RELAY_AUTH":
      return 401;
    case "REMOTE_RELAY_PERMISSION":
    case "REMOTE_RELAY_FORBIDDEN":
    case "REMOTE_RELAY_SELF":
      return 403;
    case "REMOTE_RELAY_NOT_FOUND":
      return 404;
    case "REMOTE_RELAY_BUSY":
    case "REMOTE_RELAY_NO_ACTIVE_TURN":
    case "REMOTE_RELAY_LIMIT":
    case "REMOTE_RELAY_SCHEDULE_LIMIT":
    case "REMOTE_RELAY_QUESTION_LIMIT":
    case "REMOTE_RELAY_HOP_LIMIT":
      return 409;
    case "REMOTE_RELAY_UNKNOWN_MODEL":
    case "REMOTE_RELAY_UNKNOWN_GROUP":
    case "REMOTE_RELAY_PROVIDER_UNAVAILABLE":
      return 422;
    case "REMOTE_RELAY_LOCKED":
      return 423;
    case "REMOTE_RELAY_INTERNAL":
      return 500;
    case "REMOTE_RELAY_UNSUPPORTED":
      return 501;
    case "REMOTE_RELAY_UNREACHABLE":
      return 502;
    case "REMOTE_RELAY_UNAVAILABLE":
      return 503;
  }
}

/** The one error body of every surface: `{ ok: false, code, error, … }` (DESIGN §4). */
export function errorResponse(
  c: Context,
  code: ErrorCode,
  message: string,
  extra: ErrorExtra = {},
): Response {
  return c.json(errorEnvelope(code, message, extra), codeToStatus(code));
}

/** A bug's envelope: it names the request id under which it was logged. */
export function internalEnvelope(requestId: string): ErrorEnvelope {
  return errorEnvelope(
    "REMOTE_RELAY_INTERNAL",
    `The relay failed on this request; it is logged as ${requestId}.`,
    { requestId },
  );
}

/**
 * `app.onError`: a RelayError with a wire code maps through codeToStatus; Hono's HTTPException
 * keeps its status; anything else (local codes included) is a bug, logged with the request id.
 */
export function handleError(logger: Logger) {
  return (error: Error, c: Context): Response => {
    if (isRelayError(error) && !error.isLocal()) {
      return errorResponse(c, error.code as ErrorCode, error.message, wireExtraOf(error));
    }
    if (error instanceof HTTPException && error.status < 500) {
      const code =
        error.status === 401
          ? "REMOTE_RELAY_AUTH"
          : error.status === 404
            ? "REMOTE_RELAY_NOT_FOUND"
            : "REMOTE_RELAY_INVALID_INPUT";
      return c.json(errorEnvelope(code, error.message || "Bad request."), error.status);
    }
    const requestId = c.get("requestId") ?? "unknown";
    logger.error("request failed", { requestId, method: c.req.method, path: c.req.path, error });
    return c.json(internalEnvelope(requestId), 500);
  };
}
