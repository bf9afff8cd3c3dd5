import { RelayError } from "@oar/core";
import { peerAddressForDisplay, peerAddressRule } from "@oar/permissions";
import type { OwnerCreatePeerBody, OwnerPatchPeerBody } from "@oar/schema";
import { enforce } from "../actions/refusal";
import { peerStatus } from "../pairing/peer-status";
import type { PeerRecord } from "../ports/peer-store";
import type { OwnerPeerView } from "./owner-api";
import { type OwnerContext, ownerChange } from "./owner-context";

async function peerView(ctx: OwnerContext, peer: PeerRecord, fresh = false): Promise<OwnerPeerView> {
  const status = await peerStatus(ctx.deps, ctx.live.peerStatus, peer, { fresh });
  return {
    name: peer.name,
    url: peerAddressForDisplay(peer.url),
    level: peer.level,
    online: status.online,
    version: status.version,
    problem: status.problem,
  };
}

async function requirePeer(ctx: OwnerContext, name: string): Promise<PeerRecord> {
  const peer = await ctx.deps.stores.peers.getPeer(name);
  if (!peer) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No paired relay named "${name}" on this relay.`);
  }
  return peer;
}

/**
 * POST /v1/owner/peers: pairs, then asks the new peer at once who it is. The address rule
 * (R-HOP-06, no credentials) is checked here, not by the caller, so every embedder gets it.
 */
export async function createOwnerPeer(ctx: OwnerContext, body: OwnerCreatePeerBody): Promise<OwnerPeerView> {
  const { deps } = ctx;
  enforce(peerAddressRule(body.url));
  if (body.name.toLowerCase() === deps.relay.name.toLowerCase()) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `"${body.name}" is this relay's own name: agents reach this relay as "this" or by that name, so a paired relay needs another one.`,
    );
  }
  const created = await deps.stores.peers.createPeer({
    id: deps.ids.next("peer"),
    name: body.name,
    url: body.url,
    level: body.level,
    token: body.token,
    createdAt: deps.clock.now(),
  });
  if (!created.ok) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `A relay is already paired as "${body.name}": change it with PATCH /v1/owner/peers/${body.name}, or remove it first.`,
    );
  }
  return peerView(ctx, created.peer, true);
}

export async function listOwnerPeers(ctx: OwnerContext): Promise<OwnerPeerView[]> {
  const peers = await ctx.deps.stores.peers.listPeers();
  return Promise.all(peers.map((peer) => peerView(ctx, peer)));
}

/** PATCH /v1/owner/peers/:name: a new address or token is tried at once; a new level holds from the next call. */
export async function patchOwnerPeer(
  ctx: OwnerContext,
  name: string,
  body: OwnerPatchPeerBody,
): Promise<OwnerPeerView> {
  const { deps } = ctx;
  if (body.url !== undefined) {
    enforce(peerAddressRule(body.url));
  }
  await requirePeer(ctx, name);
  const updated = await deps.stores.peers.updatePeer({
    name,
    patch: {
      ...(body.url === undefined ? {} : { url: body.url }),
      ...(body.token === undefined ? {} : { token: body.token }),
      ...(body.level === undefined ? {} : { level: body.level }),
    },
    at: deps.clock.now(),
  });
  if (!updated) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No paired relay named "${name}" on this relay.`);
  }
  return peerView(ctx, updated, body.url !== undefined || body.token !== undefined);
}

/**
 * DELETE /v1/owner/peers/:name: its name is unknown to agents from the next call on, and its
 * unlocks end, so a relay paired later under that name starts locked everywhere (R-LOCK-01).
 */
export async function removeOwnerPeer(ctx: OwnerContext, name: string): Promise<void> {
  const at = ctx.deps.clock.now();
  // The pairing and its unlocks go together: no unlock outlives it, none goes while it stays.
  await ownerChange(ctx, async (tx) => {
    const stored = (await tx.deps.stores.peers.getPeer(name))?.name ?? name;
    if (!(await tx.deps.stores.peers.removePeer({ name, at }))) {
      throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No paired relay named "${name}" on this relay.`);
    }
    await tx.deps.stores.unlocks.forgetRelay(name);
    // R-SLIFE-02 (d): the subscriptions on that relay end with the pairing.
    const mirrors = await tx.deps.stores.subscriptions.listMirrors({ relay: stored });
    await tx.deps.stores.subscriptions.endSubscriptions({
      ids: mirrors.map((m) => m.id),
      reason: "unpaired",
      at,
    });
    // Without the pairing this relay cannot reach that relay to end them there.
    for (const mirror of mirrors) {
      await tx.deps.stores.subscriptions.setMirrorState(mirror.id, { remoteEndedAt: at });
    }
    // R-WDR-03: the questions kept there end with it, silently.
    await tx.deps.stores.questions.endInboxQuestionsKeptOn({ relay: stored, at });
  });
  ctx.live.peerStatus.forget(name);
}
