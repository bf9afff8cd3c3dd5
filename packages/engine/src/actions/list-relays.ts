import { LIMITS, type RelayListEntry } from "@oar/schema";
import type { ActionContext, ActionSuccess } from "./context";
import { plural } from "./summary";

export const AGENT_SESSIONS_SETTING = "Agents may start and use sessions on this relay";

/**
 * §8: this relay first, marked `self: true`, when agent sessions are enabled on it (R-LREL-02);
 * the wait limit and the active-session limit in `limits` (R-LREL-04). There are no paired
 * relays yet. Works without a relay and whatever the setting (R-LREL-03).
 */
export async function listRelays(ctx: ActionContext): Promise<ActionSuccess> {
  const { relay } = ctx.deps;
  const enabled = ctx.settings.agentSessions.enabled;
  const relays: RelayListEntry[] = enabled
    ? [
        {
          name: relay.name,
          self: true,
          online: true,
          version: relay.version,
          permission: "full",
          unlocked: true,
        },
      ]
    : [];
  const unlocked = relays.filter((entry) => entry.unlocked).length;
  return {
    details: `${plural(relays.length, "relay")}, ${unlocked} unlocked`,
    fields: {
      self: { name: relay.name },
      relays,
      limits: {
        maxWaitSeconds: ctx.settings.agentSessions.longestWaitSeconds,
        maxActiveSessions: LIMITS.maxActiveSessions,
      },
    },
    notes: enabled
      ? []
      : [`The owner's setting "${AGENT_SESSIONS_SETTING}" is off, so relay "${relay.name}" is not listed.`],
  };
}
