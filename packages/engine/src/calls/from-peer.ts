import { acceptPromptsRule, incomingHopRule } from "@oar/permissions";
import { okEnvelope, type PeerOrigin, type PeerPreflight, type RelayToolCall } from "@oar/schema";
import { forOtherSession } from "../actions/approvals";
import type { ActionContext, CallerProfile, GateTarget } from "../actions/context";
import { enforce, refuse } from "../actions/refusal";
import { isThisRelay } from "../actions/relay";
import { summaryLine } from "../actions/summary";
import type { ExecuteOptions, ToolResult } from "../ports/tool-result";
import { readSettings } from "../settings/settings";
import { reportedCall } from "./call-report";
import { type CallOutcome, type EngineParts, parseAndRespond, runOnThisRelay } from "./execute";

/** Not an error: the check of a preflight passed at the action's gate, before its first write. */
class PreflightPassed {
  constructor(readonly facts: GateTarget) {}
}

/** The calling conversation as the other relay described it; what it does not say is not known here. */
function profileOf(origin: PeerOrigin): CallerProfile {
  const defaults = origin.defaults ?? {};
  return {
    id: origin.session,
    title: origin.title,
    provider: defaults.provider ?? null,
    model: defaults.model ?? (origin.model === "" ? null : origin.model),
    effort: defaults.effort ?? null,
    mode: defaults.mode ?? "agent",
    cwd: null,
    repo: null,
    branch: null,
    group: null,
    // The calling relay applied the one-level rule to its own conversation (R-LOCAL-03).
    startedByAgent: false,
    mayCreateSessions: true,
  };
}

/**
 * This relay's part of the rules for another relay's agent, at the write's gate: a preflight stops
 * here with what the cards must show; update_session of a session that conversation did not start
 * needs the Allow its owner gave on the calling relay (R-UPD-10/12).
 */
function peerGate(ctx: ActionContext, origin: PeerOrigin) {
  return async (call: RelayToolCall, facts: GateTarget = {}): Promise<void> => {
    if (ctx.peer?.preflight === true) {
      throw new PreflightPassed(facts);
    }
    const { target } = facts;
    if (
      call.action === "update_session" &&
      target !== undefined &&
      !target.startedByCaller &&
      origin.approvals?.updateOtherSessions !== true
    ) {
      refuse(
        "REMOTE_RELAY_PERMISSION",
        `Session ${target.id}${target.title === undefined ? "" : ` ("${target.title}")`} on relay "${ctx.deps.relay.name}" was not started by your conversation: changing it needs the user's Allow on relay "${origin.relay}" (asked once per conversation and relay). Nothing was changed.`,
      );
    }
  };
}

function preflightFields(facts: GateTarget): PeerPreflight {
  const { target, details } = facts;
  return {
    ...(target === undefined
      ? {}
      : {
          target: {
            id: target.id,
            ...(target.title === undefined ? {} : { title: target.title }),
            startedByCaller: target.startedByCaller,
            busy: target.busy,
          },
        }),
    ...(details === undefined
      ? {}
      : {
          details: {
            ...(details.billingSwitch === undefined ? {} : { billingSwitch: details.billingSwitch }),
            ...(details.group === undefined ? {} : { group: details.group }),
            ...(details.changes === undefined ? {} : { changes: { ...details.changes } }),
          },
        }),
  };
}

async function runPeerCall(
  parts: EngineParts,
  origin: PeerOrigin,
  call: RelayToolCall,
  options: ExecuteOptions,
): Promise<CallOutcome> {
  const { deps } = parts;
  const name = deps.relay.name;
  if (call.action === "list_relays") {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      "list_relays is not forwarded between relays: each relay lists the relays its own agents can use.",
    );
  }
  if (!isThisRelay(call.relay, name)) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `Relay "${name}" runs calls on itself only and forwards none to relay "${call.relay}": call that relay directly, if it is paired with yours.`,
    );
  }
  const settings = await readSettings(deps.stores.settings);
  const profile = profileOf(origin);
  const ctx: ActionContext = {
    ...parts,
    callerId: origin.session,
    from: { relay: origin.relay, session: origin.session },
    peer: { origin, preflight: origin.preflight === true },
    loadCaller: async () => profile,
    settings,
    signal: options.signal,
    gate: (gated, facts) => peerGate(ctx, origin)(gated, facts),
  };
  const shape = { action: call.action, forOtherSession: forOtherSession(ctx, call) };
  enforce(acceptPromptsRule({ ...shape, relayName: name, accepts: settings.acceptPromptsFromOtherRelays }));
  enforce(incomingHopRule({ ...shape, relayName: name, origin }));
  try {
    return { kind: "success", success: await runOnThisRelay(ctx, call) };
  } catch (error) {
    if (!(error instanceof PreflightPassed)) {
      throw error;
    }
    const session = "session" in call && typeof call.session === "string" ? call.session : undefined;
    return {
      kind: "result",
      result: okEnvelope(
        {
          relay: name,
          summary: summaryLine({
            action: call.action,
            relay: name,
            ...(session === undefined ? {} : { session }),
            details: "checked, nothing done",
          }),
        },
        { preflight: preflightFields(error.facts) },
      ),
    };
  }
}

/**
 * Runs a call another relay's agent made (DESIGN §4 POST /v1/peer/tool): the call rules
 * (parseCall) with this relay's own version, then this relay's side of the rules — Accept
 * prompts (R-PERM-07/08), the hop rule from the origin (R-HOP-01) — then the action, whose writes
 * pass `peerGate`. The calling relay has applied the lock, the level and its owner's cards.
 */
export function executeFromPeer(
  parts: EngineParts,
  origin: PeerOrigin,
  input: unknown,
  options: ExecuteOptions = {},
): Promise<ToolResult> {
  const who = {
    callId: parts.deps.ids.next("toolCall"),
    session: origin.session,
    fromRelay: origin.relay,
    input,
  };
  return reportedCall(parts.deps, who, (started) =>
    parseAndRespond(parts.deps, input, { peer: origin.relay, callerSessionId: origin.session }, (call) => {
      started(call.action);
      return runPeerCall(parts, origin, call, options);
    }),
  );
}
