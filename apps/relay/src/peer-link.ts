import { createPeerClient } from "@oar/client";
import { RelayError } from "@oar/core";
import type { PeerLink } from "@oar/engine";
import { peerAddressProblem } from "@oar/permissions";

/**
 * The engine's network to paired relays, over @oar/client. `fetch` is the global one, or in tests
 * another relay's app (two relays in one process, STYLE §12).
 */
export function createPeerLink(options: { readonly fetch?: typeof globalThis.fetch } = {}): PeerLink {
  const client = (peer: { readonly name: string; readonly url: string; readonly token: string }) => {
    // The owner verbs refuse such an address when pairing; a pairing stored before they did is
    // not called either (R-HOP-06, DESIGN §7). Nothing is sent.
    const problem = peerAddressProblem(peer.url);
    if (problem !== null) {
      throw new RelayError(
        "VALIDATION",
        `this relay does not call the address paired as "${peer.name}": ${problem} The owner can change it with PATCH /v1/owner/peers/${peer.name}.`,
      );
    }
    return createPeerClient({
      url: peer.url,
      token: peer.token,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  };
  return {
    info: async (peer, callOptions) => client(peer).info(callOptions),
    tool: async (peer, request, callOptions) => client(peer).tool(request, callOptions),
    subscriptionEvents: async (peer, subscriptionId, query, callOptions) =>
      client(peer).subscriptionEvents(subscriptionId, query, callOptions),
    question: async (peer, questionId, callOptions) => client(peer).question(questionId, callOptions),
  };
}
