import { findMentionedRelays } from "@oar/permissions";
import type { OwnerContext } from "./owner-context";

/**
 * R-LOCK-01(a), R-LOCK-03: the paired relays the owner names in a message of the conversation
 * (its name or host; an IP or `localhost` only with `@`, R-LOCK-02) are unlocked in it for good.
 */
export async function unlockMentionedRelays(
  ctx: OwnerContext,
  conversation: string,
  text: string,
): Promise<string[]> {
  const { stores, clock } = ctx.deps;
  const peers = await stores.peers.listPeers();
  if (peers.length === 0) {
    return [];
  }
  const mentioned = findMentionedRelays(
    text,
    peers.map((peer) => ({ name: peer.name, host: peer.url })),
  );
  const at = clock.now();
  for (const relay of mentioned) {
    await stores.unlocks.unlockRelay({ conversation, relay, how: "mention", at });
  }
  return mentioned;
}
