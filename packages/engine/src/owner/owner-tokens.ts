import { RelayError } from "@oar/core";
import { issueToken } from "../tokens/token-verbs";
import type { OwnerInvite } from "./owner-api";
import { type OwnerContext, requireSession } from "./owner-context";

/**
 * POST /v1/owner/sessions/:id/token: a new agent token for the session, how an external agent, a
 * CLI the relay starts, or a test acts as that conversation.
 */
export async function issueOwnerAgentToken(ctx: OwnerContext, sessionId: string): Promise<string> {
  const session = await requireSession(ctx, sessionId);
  return issueToken(ctx.deps, { kind: "agent", subject: session.id });
}

/**
 * POST /v1/owner/peers/invites: a token another relay's owner adds when pairing with this one;
 * whoever holds it may call this relay's peer surface (DESIGN §4).
 */
export function issueOwnerInvite(ctx: OwnerContext): Promise<string> {
  return issueToken(ctx.deps, { kind: "invite" });
}

/** The live invites, oldest first: never the tokens again, only which relay each one belongs to. */
export async function listOwnerInvites(ctx: OwnerContext): Promise<OwnerInvite[]> {
  const invites = await ctx.deps.stores.tokens.listTokens({ kind: "invite" });
  return invites.map((invite) => ({ id: invite.id, relay: invite.label, createdAt: invite.createdAt }));
}

/** DELETE /v1/owner/peers/invites/:id: the relay holding it can no longer call this one. */
export async function revokeOwnerInvite(ctx: OwnerContext, id: string): Promise<void> {
  const { tokens } = ctx.deps.stores;
  const [invite] = await tokens.listTokens({ kind: "invite", subject: id });
  if (!invite || !(await tokens.revokeToken({ id, at: ctx.deps.clock.now() }))) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No live invite ${id} on this relay.`);
  }
}
