import { actionMeta, type PermissionLevel } from "@oar/schema";
import type { CallShape } from "./call-shape";
import { actsOnTarget, LEVEL_LABELS, levelAllows, needsNoSettingNorMention, requiredLevel } from "./levels";
import type { UnlockHow } from "./ports";
import { ALLOW, refuse, type Verdict } from "./verdict";

/** The owner's switch for agent sessions on this relay (R-PERM-09, DESIGN GAP-02); the engine uses the same name. */
export const AGENT_SESSIONS_SETTING = "Agents may start and use sessions on this relay";

/** The paired relay's own switch (R-PERM-07). */
export const ACCEPT_PROMPTS_SETTING = "Accept prompts from other relays' agents";

/** The relay a call works on, as the caller's relay knows it. */
export type TargetRelay =
  | {
      readonly kind: "self";
      readonly name: string;
      /** The owner's switch "Agents may start and use sessions on this relay" (DESIGN GAP-02). */
      readonly agentSessionsEnabled: boolean;
    }
  | {
      readonly kind: "paired";
      readonly name: string;
      /** This relay's Agents may setting for that pairing (R-PERM-01). */
      readonly level: PermissionLevel;
      /** How the calling conversation unlocked it (R-LOCK-01), null while it is locked. */
      readonly unlock: UnlockHow | null;
    };

export interface RelayAccessQuery extends CallShape {
  readonly relay: TargetRelay;
  /**
   * The target's "Accept prompts from other relays' agents" (R-PERM-07), when the caller's relay
   * knows it; pass `true` when it does not, since the target applies it again itself
   * (`acceptPromptsRule`). Ignored for this relay: the caller is not another relay's agent.
   */
  readonly acceptsPromptsFromOtherRelays: boolean;
}

/**
 * R-PERM-07/08, on the relay that receives a call from another relay's agent: with the switch off,
 * every call that modifies or watches something there is refused; reading, waiting, listing,
 * relay_info, usage, and undoing what the caller did (unsubscribe, withdraw) still work.
 */
export function acceptPromptsRule(
  query: CallShape & { readonly relayName: string; readonly accepts: boolean },
): Verdict {
  if (query.accepts || !actsOnTarget(query)) {
    return ALLOW;
  }
  return refuse(
    "REMOTE_RELAY_PERMISSION",
    `Relay "${query.relayName}" does not accept prompts from other relays' agents (its setting "${ACCEPT_PROMPTS_SETTING}" is off), so ${query.action} is disabled there. Listing and reading sessions, reading task output, waiting, relay_info and usage still work.`,
  );
}

function selfAccess(query: RelayAccessQuery & { readonly relay: { readonly kind: "self" } }): Verdict {
  if (query.relay.agentSessionsEnabled) {
    return ALLOW;
  }
  return refuse(
    "REMOTE_RELAY_PERMISSION",
    `Agents may not use sessions on relay "${query.relay.name}": the owner's setting "${AGENT_SESSIONS_SETTING}" is off.`,
  );
}

/**
 * Whether the calling conversation may use the relay for this call (§3, §4.1), in this order:
 *
 * 1. `list_relays` works on no relay and is always allowed (R-PERM-03, R-LOCK-04).
 * 2. A schedule action naming a paired relay: REMOTE_RELAY_UNSUPPORTED (R-SCH-03), whatever the
 *    lock and level, since neither would help.
 * 3. What R-QCHK-01 frees (`ask` about the own conversation, `list_questions`, `withdraw`):
 *    allowed, with no setting and no mention.
 * 4. This relay is never locked and counts as Full (R-RLY-02, R-PERM-04), but it is usable only
 *    while the owner's agent-sessions switch is on (DESIGN GAP-02): REMOTE_RELAY_PERMISSION.
 * 5. A locked paired relay: REMOTE_RELAY_LOCKED with the instruction to ask the user to mention
 *    it (R-LOCK-04), checked before the level so the agent hears of the lock first.
 * 6. A level below the action's: REMOTE_RELAY_PERMISSION naming the level needed (DESIGN GAP-03).
 * 7. The target does not accept other relays' agents: REMOTE_RELAY_PERMISSION (R-PERM-07/08).
 */
export function relayAccess(query: RelayAccessQuery): Verdict {
  const { action, relay } = query;
  if (action === "list_relays") {
    return ALLOW;
  }
  if (relay.kind === "paired" && actionMeta[action].thisRelayOnly) {
    return refuse(
      "REMOTE_RELAY_UNSUPPORTED",
      `Schedules are kept by the relay the agent runs on, so ${action} cannot name relay "${relay.name}": omit relay, or pass "this".`,
    );
  }
  if (needsNoSettingNorMention(query)) {
    return ALLOW;
  }
  if (relay.kind === "self") {
    return selfAccess({ ...query, relay });
  }
  if (relay.unlock === null) {
    return refuse(
      "REMOTE_RELAY_LOCKED",
      `Relay "${relay.name}" is locked in this conversation. Ask the user to mention it in a message (by its name or host, or as @${relay.name}); it then stays unlocked for the rest of the conversation. Only list_relays works on a locked relay.`,
    );
  }
  const needed = requiredLevel(action, query);
  if (needed !== "this_relay_only" && !levelAllows(relay.level, needed)) {
    return refuse(
      "REMOTE_RELAY_PERMISSION",
      `Relay "${relay.name}" is paired with Agents may "${LEVEL_LABELS[relay.level]}"; ${action} needs at least "${LEVEL_LABELS[needed]}". Only the user can raise it, under Settings → Relays.`,
    );
  }
  return acceptPromptsRule({ ...query, relayName: relay.name, accepts: query.acceptsPromptsFromOtherRelays });
}
