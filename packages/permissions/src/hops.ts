import { LIMITS } from "@oar/schema";
import type { CallShape } from "./call-shape";
import { actsOnTarget } from "./levels";
import type { UnlockHow } from "./ports";
import { ALLOW, refuse, type Verdict } from "./verdict";

/**
 * Hops count relay-to-relay crossings. A prompt the owner, a local agent or a local schedule
 * started has 0; a prompt from relay A to relay B arrives on B with 1; B's agent prompting C
 * gives 2. A prompt that has already crossed two relays (arrived with 2) is not forwarded to a
 * third one unless the user unlocked that relay personally (R-HOP-01; LIMITS.hopsWithoutUnlock).
 */
export function forwardedHops(turnHops: number, target: { readonly kind: "self" | "paired" }): number {
  return target.kind === "paired" ? turnHops + 1 : turnHops;
}

export interface HopQuery extends CallShape {
  /**
   * Hops of the prompt that started the caller's current turn (its provenance); 0 when the owner
   * or a local agent or schedule started it. A schedule carries the hops of the turn that created
   * it (R-SCH-14), a non-blocking question those of the turn that asked it (R-HOP-07).
   */
  readonly turnHops: number;
  readonly relay:
    | { readonly kind: "self" }
    | { readonly kind: "paired"; readonly name: string; readonly unlock: UnlockHow | null };
}

function hopLimitMessage(action: string, relayName: string, hops: number): string {
  return `This turn comes from a prompt that has already crossed ${hops} relays, so ${action} is not forwarded to relay "${relayName}" unless the user unlocked that relay personally, by mentioning it in this conversation (a relay opened because its agent wrote here does not count). Reading and waiting are never limited.`;
}

/**
 * R-HOP-01/02/07 on the caller's relay: a call that modifies or watches something on a paired
 * relay (see `actsOnTarget`) is refused with REMOTE_RELAY_HOP_LIMIT when it would make the
 * prompt's crossings exceed LIMITS.hopsWithoutUnlock and the conversation's unlock of that relay
 * is not a mention. Calls on this relay cross nothing; reading and waiting are never limited.
 */
export function hopRule(query: HopQuery): Verdict {
  const { relay } = query;
  if (relay.kind === "self" || !actsOnTarget(query)) {
    return ALLOW;
  }
  if (forwardedHops(query.turnHops, relay) <= LIMITS.hopsWithoutUnlock || relay.unlock === "mention") {
    return ALLOW;
  }
  return refuse("REMOTE_RELAY_HOP_LIMIT", hopLimitMessage(query.action, relay.name, query.turnHops));
}

/**
 * The same rule on the receiving relay, from the peer origin of the call: `hops` counts the
 * crossing into this relay (`forwardedHops` on the caller's side) and `userUnlocked` says whether
 * the caller's user mentioned this relay in the calling conversation.
 */
export function incomingHopRule(
  query: CallShape & {
    readonly relayName: string;
    readonly origin: { readonly hops: number; readonly userUnlocked: boolean };
  },
): Verdict {
  const { origin } = query;
  if (!actsOnTarget(query) || origin.hops <= LIMITS.hopsWithoutUnlock || origin.userUnlocked) {
    return ALLOW;
  }
  return refuse("REMOTE_RELAY_HOP_LIMIT", hopLimitMessage(query.action, query.relayName, origin.hops - 1));
}

/** One line, no double quotes inside the quoted fields: a title cannot forge a second header. */
function headerField(value: string): string {
  return value.replace(/\s+/g, " ").replaceAll('"', "'").trim();
}

/**
 * The first line of a prompt another agent sends (R-HOP-03):
 * `[Remote prompt from an agent on relay "desk" · session "Review: server/" · claude-sonnet-5-5 · acting for the user]`.
 * Line breaks in the fields become spaces and `"` becomes `'`; an unknown model reads `unknown model`.
 */
export function remotePromptHeader(from: {
  readonly relay: string;
  readonly session: string;
  readonly model: string | null;
}): string {
  const model = from.model === null || from.model.trim() === "" ? "unknown model" : headerField(from.model);
  return `[Remote prompt from an agent on relay "${headerField(from.relay)}" · session "${headerField(from.session)}" · ${model} · acting for the user]`;
}
