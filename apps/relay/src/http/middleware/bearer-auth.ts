import { createHash, timingSafeEqual } from "node:crypto";
import type { Engine, TokenRecord } from "@oar/engine";
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { errorResponse } from "../errors";

declare module "hono" {
  interface ContextVariableMap {
    /** The calling conversation, set by agentAuth from the agent token. */
    agentSessionId: string;
    /** The invite another relay called with, set by peerAuth. */
    peerInvite: TokenRecord;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function bearerOf(c: Context): string | undefined {
  return BEARER.exec(c.req.header("Authorization") ?? "")?.[1];
}

function refused(c: Context, message: string): Response {
  return errorResponse(c, "REMOTE_RELAY_AUTH", message);
}

const MISSING = "This route needs Authorization: Bearer <token>.";

function sha256(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/** The owner surface: the owner token only, compared in constant time (as hashes, so lengths match). */
export function ownerAuth(ownerToken: string): MiddlewareHandler {
  const expected = sha256(ownerToken);
  return createMiddleware(async (c, next) => {
    const token = bearerOf(c);
    if (token === undefined) {
      return refused(c, MISSING);
    }
    if (!timingSafeEqual(sha256(token), expected)) {
      return refused(c, "The bearer token is not this relay's owner token.");
    }
    return next();
  });
}

/**
 * A surface whose bearer is a live token of one kind (the three kinds are never interchangeable,
 * DESIGN §7); `found` keeps what the route needs of it.
 */
function tokenAuth(options: {
  readonly engine: Engine;
  readonly kind: "agent" | "invite";
  readonly refusal: string;
  readonly found: (c: Context, record: TokenRecord) => void;
}): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const token = bearerOf(c);
    if (token === undefined) {
      return refused(c, MISSING);
    }
    const record = await options.engine.authenticate(options.kind, token);
    if (record === null) {
      return refused(c, options.refusal);
    }
    options.found(c, record);
    return next();
  });
}

/**
 * The agent surface: a live agent token. The session it names is the calling conversation;
 * deleting a session revokes its tokens, so a live agent token always names a live session.
 */
export function agentAuth(deps: { readonly engine: Engine }): MiddlewareHandler {
  return tokenAuth({
    engine: deps.engine,
    kind: "agent",
    refusal: "The bearer token is not the agent token of a session on this relay.",
    found: (c, record) => c.set("agentSessionId", record.subject),
  });
}

/**
 * The peer surface: an invite this relay issued. Pairing may be one way (R-PAIR-02): the caller
 * needs no pairing here.
 */
export function peerAuth(deps: { readonly engine: Engine }): MiddlewareHandler {
  return tokenAuth({
    engine: deps.engine,
    kind: "invite",
    refusal: "The bearer token is not an invite this relay issued to another relay.",
    found: (c, record) => c.set("peerInvite", record),
  });
}
