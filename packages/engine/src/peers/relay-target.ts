import { resolveRelayRef } from "@oar/permissions";
import type { ActionContext } from "../actions/context";
import { refuse } from "../actions/refusal";
import { isThisRelay } from "../actions/relay";
import type { PeerRecord } from "../ports/peer-store";

export type RelayTarget = { readonly kind: "self" } | { readonly kind: "paired"; readonly peer: PeerRecord };

/**
 * The relay a `relay` argument names (§3.1): `"this"` or this relay's own name (R-RLY-02), a
 * paired relay by its name or its host (R-RLY-03). Unknown → REMOTE_RELAY_NOT_FOUND; a host that
 * two pairings share → REMOTE_RELAY_INVALID_INPUT asking for the name.
 */
export async function resolveRelayTarget(ctx: ActionContext, ref: string): Promise<RelayTarget> {
  const selfName = ctx.deps.relay.name;
  if (isThisRelay(ref, selfName)) {
    return { kind: "self" };
  }
  const peers = await ctx.deps.stores.peers.listPeers();
  const resolved = resolveRelayRef(ref, {
    selfName,
    paired: peers.map((peer) => ({ name: peer.name, host: peer.url })),
  });
  switch (resolved.kind) {
    case "self":
      return { kind: "self" };
    case "paired": {
      const peer = peers.find((candidate) => candidate.name === resolved.name);
      if (peer) {
        return { kind: "paired", peer };
      }
      break;
    }
    case "ambiguous":
      refuse(
        "REMOTE_RELAY_INVALID_INPUT",
        `relay "${ref}" is the host of several paired relays (${resolved.names.join(", ")}): pass one of their names.`,
      );
      break;
    case "unknown":
      break;
  }
  return refuse(
    "REMOTE_RELAY_NOT_FOUND",
    `No relay named "${ref}": it is neither this relay ("${selfName}") nor a paired relay's name or host. list_relays shows the relays this conversation can use.`,
  );
}
