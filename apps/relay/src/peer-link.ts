import { createPeerClient } from "@oar/client";
import type { PeerLink } from "@oar/engine";

/**
 * The engine's network to paired relays, over @oar/client. `fetch` is the global one, or in tests
 * another relay's app (two relays in one process, STYLE §12).
 */
export function createPeerLink(options: { readonly fetch?: typeof globalThis.fetch } = {}): PeerLink {
  const client = (peer: { readonly url: string; readonly token: string }) =>
    createPeerClient({
      url: peer.url,
      token: peer.token,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  return {
    info: (peer, callOptions) => client(peer).info(callOptions),
    tool: (peer, request, callOptions) => client(peer).tool(request, callOptions),
  };
}
