import { toIso } from "@oar/core";
import type { Engine } from "@oar/engine";
import { OwnerCreatePeerBodySchema, OwnerPatchPeerBodySchema, type TokenResponse } from "@oar/schema";
import { Hono } from "hono";
import { readBody } from "../validate";

/** /v1/owner/peers (DESIGN §4 pairing): invites for other relays, and this relay's pairings. */
export function ownerPeerRoutes(engine: Engine): Hono {
  const { owner } = engine;
  const app = new Hono();
  app.post("/invites", async (c) => c.json({ token: await owner.issueInvite() } satisfies TokenResponse));
  // The invites themselves are never shown again: only which relay each one belongs to.
  app.get("/invites", async (c) => {
    const invites = await owner.listInvites();
    return c.json({ invites: invites.map((invite) => ({ ...invite, createdAt: toIso(invite.createdAt) })) });
  });
  app.delete("/invites/:id", async (c) => {
    await owner.revokeInvite(c.req.param("id"));
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
