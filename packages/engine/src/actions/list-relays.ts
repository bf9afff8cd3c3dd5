import { AGENT_SESSIONS_SETTING, peerAddressForDisplay } from "@oar/permissions";
import { LIMITS, type RelayListEntry } from "@oar/schema";
import { peerStatus } from "../pairing/peer-status";
import type { ActionContext, ActionSuccess } from "./context";
import { plural } from "./summary";

/**
 * §8: this relay first, marked `self: true`, when agent sessions are enabled on it (R-LREL-02),
 * then every paired relay with its address, whether it answers and its version (asked at most
 * every few seconds), the pairing's level and whether this conversation has unlocked it
 * (R-LREL-01, R-LOCK-05, R-PERM-06); the wait limit and the active-session limit in `limits`
 * (R-LREL-04). Works without a relay and whatever the setting (R-LREL-03).
 */
export async function listRelays(ctx: ActionContext): Promise<ActionSuccess> {
  const { relay, stores } = ctx.deps;
  const enabled = ctx.settings.agentSessions.enabled;
  const [peers, unlocks] = await Promise.all([
    stores.peers.listPeers(),
    stores.unlocks.listRelayUnlocks(ctx.callerId),
  ]);
  const unlocked = new Set(unlocks.map((unlock) => unlock.relay.toLowerCase()));
  const paired: RelayListEntry[] = await Promise.all(
    peers.map(async (peer) => {
      const status = await peerStatus(ctx.deps, ctx.live.peerStatus, peer);
      return {
        name: peer.name,
        // Never a user name or password an older pairing may hold (DESIGN §7).
        url: peerAddressForDisplay(peer.url),
        online: status.online,
        version: status.version,
        permission: peer.level,
        unlocked: unlocked.has(peer.name.toLowerCase()),
      };
    }),
  );
  const relays: RelayListEntry[] = [
    ...(enabled
      ? [
          {
            name: relay.name,
            self: true,
            online: true,
            version: relay.version,
            permission: "full" as const,
            unlocked: true,
          },
        ]
      : []),
    ...paired,
  ];
  const open = relays.filter((entry) => entry.unlocked).length;
  return {
    details: `${plural(relays.length, "relay")}, ${open} unlocked`,
    fields: {
      self: { name: relay.name },
      relays,
      limits: {
        maxWaitSeconds: ctx.settings.agentSessions.longestWaitSeconds,
        maxActiveSessions: LIMITS.maxActiveSessions,
      },
    },
    notes: [
      ...(enabled
        ? []
        : [
            `The owner's setting "${AGENT_SESSIONS_SETTING}" is off, so relay "${relay.name}" is not listed.`,
          ]),
      ...(paired.some((entry) => !entry.unlocked)
        ? [
            "A locked relay works only after the user mentions it in a message of this conversation (by its name or host, or @name).",
          ]
        : []),
    ],
  };
}
