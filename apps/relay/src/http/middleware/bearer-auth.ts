import { timingSafeEqual } from "node:crypto";
import type { TokenRecord, TokenStore } from "@oar/engine";
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { hashToken } from "../../agent-tokens";
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

/** The owner surface: the owner token only, compared in constant time (as hashes, so lengths match). */
export function ownerAuth(ownerToken: string): MiddlewareHandler {
  const expected = Buffer.from(hashToken(ownerToken), "hex");
  return createMiddleware(async (c, next) => {
    const token = bearerOf(c);
    if (token === undefined) {
      return refused(c, MISSING);
    }
    if (!timingSafeEqual(Buffer.from(hashToken(token), "hex"), expected)) {
      return refused(c, "The bearer token is not this relay's owner token.");
    }
    return next();
  });
}

/**
 * The agent surface: a live agent token, found by its hash. The session it names is the calling
 * conversation.
 */
export function agentAuth(deps: { readonly tokens: TokenStore }): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const token = bearerOf(c);
    if (token === undefined) {
      return refused(c, MISSING);
    }
    // Deleting a session revokes its tokens, so a live agent token always names a live session.
    const record = await deps.tokens.findTokenByHash(hashToken(token));
    if (record?.kind !== "agent") {
      return refused(c, "The bearer token is not the agent token of a session on this relay.");
    }
    c.set("agentSessionId", record.subject);
    return next();
  });
}

/**
 * The peer surface: an invite token this relay issued (kind "peer"), never an agent's or the
 * owner's. Pairing may be one way (R-PAIR-02): the caller needs no pairing here.
 */
export function peerAuth(deps: { readonly tokens: TokenStore }): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const token = bearerOf(c);
    if (token === undefined) {
      return refused(c, MISSING);
    }
    const record = await deps.tokens.findTokenByHash(hashToken(token));
    if (record?.kind !== "peer") {
      return refused(c, "The bearer token is not an invite this relay issued to another relay.");
    }
    c.set("peerInvite", record);
    return next();
  });
}
