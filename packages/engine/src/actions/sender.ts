import { remotePromptHeader } from "@oar/permissions";
import type { ActionContext } from "./context";

/** R-HOP-03: a prompt from another relay's agent begins with the line that says so. */
export function promptText(ctx: ActionContext, text: string): string {
  if (!ctx.peer) {
    return text;
  }
  const { origin } = ctx.peer;
  return `${remotePromptHeader({ relay: origin.relay, session: origin.title, model: origin.model })}\n${text}`;
}

/**
 * R-LOCK-01(b): an agent of another relay wrote in this conversation, so that relay is open in it
 * and the agent here can reply. The unlock is under this relay's name for the pairing with it —
 * the pairing of that name, else the one whose relay calls itself so — or, with no pairing, under
 * the name the caller gave, ready for a pairing made later under it.
 */
export async function openToSender(ctx: ActionContext, sessionId: string): Promise<void> {
  if (!ctx.peer) {
    return;
  }
  const { stores, clock } = ctx.deps;
  const sender = ctx.peer.origin.relay;
  const wanted = sender.toLowerCase();
  const pairing =
    (await stores.peers.getPeer(sender)) ??
    (await stores.peers.listPeers()).find((peer) => peer.remoteName?.toLowerCase() === wanted);
  await stores.unlocks.unlockRelay({
    conversation: sessionId,
    relay: pairing?.name ?? sender,
    how: "agent",
    at: clock.now(),
  });
}
