import { RelayError, toIso } from "@oar/core";
import { OwnerCreatePeerBodySchema, OwnerPatchPeerBodySchema, type TokenResponse } from "@oar/schema";
import { Hono } from "hono";
import { issuePeerInvite } from "../../agent-tokens";
import { readBody } from "../validate";
import type { OwnerTokenRouteDeps } from "./owner-sessions";

/** /v1/owner/peers (DESIGN §4 pairing): invites for other relays, and this relay's pairings. */
export function ownerPeerRoutes(deps: OwnerTokenRouteDeps): Hono {
  const owner = deps.engine.owner;
  const app = new Hono();
  app.post("/invites", async (c) => c.json({ token: await issuePeerInvite(deps) } satisfies TokenResponse));
  // The invites themselves are never shown again: only which relay each one belongs to.
  app.get("/invites", async (c) => {
    const invites = await deps.tokens.listTokens({ kind: "invite" });
    return c.json({
      invites: invites.map((invite) => ({
        id: invite.id,
        relay: invite.label,
        createdAt: toIso(invite.createdAt),
      })),
    });
  });
  app.delete("/invites/:id", async (c) => {
    const id = c.req.param("id");
    const [invite] = await deps.tokens.listTokens({ kind: "invite", subject: id });
    if (!invite || !(await deps.tokens.revokeToken({ id, at: deps.clock.now() }))) {
      throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No live invite ${id} on this relay.`);
    }
    return c.json({ ok: true });
  });
  app.post("/", async (c) => {
    // The engine applies the address rule (R-HOP-06): every embedder gets it, not only HTTP.
    const body = await readBody(c, OwnerCreatePeerBodySchema);
    return c.json(await owner.createPeer(body));
  });
  app.get("/", async (c) => c.json({ peers: await owner.listPeers() }));
  app.patch("/:name", async (c) => {
    const body = await readBody(c, OwnerPatchPeerBodySchema);
    return c.json(await owner.patchPeer(c.req.param("name"), body));
  });
  app.delete("/:name", async (c) => {
    await owner.removePeer(c.req.param("name"));
    return c.json({ ok: true });
  });
  return app;
}
