import { isRelayError } from "@oar/core";
import {
  type CardDetails,
  type Decision,
  evaluateCall,
  forwardedHops,
  isWrite,
  NO_APPROVALS,
  type TargetRelay,
} from "@oar/permissions";
import {
  type PeerOrigin,
  type PeerPreflight,
  PeerPreflightSchema,
  type PeerToolRequest,
  type RelayToolCall,
  type RelayToolResultEnvelope,
} from "@oar/schema";
import {
  approvalsOf,
  callerFacts,
  countPrompt,
  decide,
  forOtherSession,
  sessionArg,
} from "../actions/approvals";
import type { ActionContext, CallerProfile } from "../actions/context";
import { refuse } from "../actions/refusal";
import { cappedWait } from "../actions/waiting";
import { notePeerAnswered, peerStatus, problemOf, seenAs } from "../pairing/peer-status";
import type { PeerRecord } from "../ports/peer-store";
import type { ToolResult } from "../ports/tool-result";
import { refuseUnsupportedCall } from "./feature-gate";
import { forwardSubscriptionCall, isSubscriptionCall } from "./remote-subscriptions";

/** How long a preflight, or a call that does not wait, may take on the other relay. */
export const PEER_CALL_TIMEOUT_MS = 30_000;
/** What a waiting call gets beyond its wait: the other relay's own work and the way back. */
export const PEER_WAIT_MARGIN_MS = 30_000;

/** The facts the permission engine needs about the target, from a preflight's answer. */
function factsOf(preflight: PeerPreflight): {
  readonly target?: NonNullable<PeerPreflight["target"]>;
  readonly details?: CardDetails;
} {
  const details = preflight.details;
  return {
    ...(preflight.target === undefined ? {} : { target: preflight.target }),
    ...(details === undefined
      ? {}
      : {
          details: {
            ...(details.billingSwitch === undefined ? {} : { billingSwitch: details.billingSwitch }),
            ...(details.group === undefined ? {} : { group: details.group }),
            ...(details.changes === undefined ? {} : { changes: details.changes }),
          },
        }),
  };
}

function waitSecondsOf(call: RelayToolCall): number | undefined {
  return call.action === "send" || call.action === "create_session" || call.action === "wait"
    ? call.wait_seconds
    : undefined;
}

/** Who calls, as the other relay sees it (DESIGN §4 origin). */
function originOf(
  ctx: ActionContext,
  caller: CallerProfile,
  hops: number,
  userUnlocked: boolean,
): PeerOrigin {
  return {
    relay: ctx.deps.relay.name,
    session: ctx.callerId,
    title: caller.title,
    model: caller.model ?? "",
    hops,
    userUnlocked,
    defaults: {
      ...(caller.provider === null ? {} : { provider: caller.provider }),
      ...(caller.model === null ? {} : { model: caller.model }),
      ...(caller.effort === null ? {} : { effort: caller.effort }),
      mode: caller.mode,
    },
  };
}

/** One exchange with the peer; a peer that does not answer, or refuses this relay, ends the call with a refusal. */
async function exchange(
  ctx: ActionContext,
  peer: PeerRecord,
  request: PeerToolRequest,
  timeoutMs: number,
): Promise<RelayToolResultEnvelope> {
  const { peerLink } = ctx.deps;
  const { action } = request.call as { action?: string };
  if (!peerLink) {
    return refuse(
      "REMOTE_RELAY_UNREACHABLE",
      `Relay "${peer.name}" cannot be reached: this relay has no network to paired relays configured. Nothing was done there.`,
    );
  }
  try {
    const result = await peerLink.tool({ name: peer.name, url: peer.url, token: peer.token }, request, {
      timeoutMs,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    await notePeerAnswered(ctx.deps, ctx.live.peerStatus, peer, {
      answered: true,
      problem: null,
      problemCode: null,
    });
    return result;
  } catch (error) {
    if (!isRelayError(error)) {
      throw error;
    }
    await notePeerAnswered(ctx.deps, ctx.live.peerStatus, peer, problemOf(error));
    if (!error.isLocal()) {
      // It answered, and refused: a token it no longer accepts, a route it does not have.
      if (error.code === "REMOTE_RELAY_AUTH") {
        return refuse(
          "REMOTE_RELAY_AUTH",
          `Relay "${peer.name}" refused this relay's token, so ${action ?? "the call"} was not run there. The owner must pair again with a new invite from that relay (PATCH /v1/owner/peers/${peer.name} with its token).`,
        );
      }
      return refuse(error.code as Parameters<typeof refuse>[0], error.message);
    }
    const maybe =
      error.code === "TIMEOUT" && request.origin.preflight !== true
        ? " It may have received the call before the answer was lost: check with read_session before sending again."
        : " Nothing was done there.";
    return refuse(
      "REMOTE_RELAY_UNREACHABLE",
      `Relay "${peer.name}" does not answer (${error.message}).${maybe}`,
    );
  }
}

/** The peer's result as this conversation sees it: `relay` is the name it knows the peer by, and this relay's notes join the peer's. */
function relabel(result: RelayToolResultEnvelope, peer: PeerRecord, notes: readonly string[]): ToolResult {
  if (!result.ok) {
    return result;
  }
  const theirName = result.relay;
  const note = [result.note, ...notes].filter((text) => text !== undefined && text !== "").join(" ");
  return {
    ...result,
    relay: peer.name,
    summary:
      theirName === peer.name ? result.summary : result.summary.replace(`→ ${theirName}`, `→ ${peer.name}`),
    ...(note === "" ? {} : { note }),
  };
}

/**
 * Runs the call on a paired relay (§3, §4, §6). This relay decides first, for its own
 * conversation: the lock (R-LOCK-04), the pairing's level (GAP-03), the hop rule (R-HOP-01), one
 * level (R-LOCAL-03), whether the other relay supports the call (its features, R-RTO-08 and the
 * other gates of PEER_FEATURE_GATES), and the cards its owner must answer (GAP-04). When a card is
 * needed, the other relay first checks the whole call without doing anything (model, group,
 * folder, who started the session: R-MDL-01, R-CGRP-05, R-UPD-13), so the card comes after those
 * checks and names what they found; then the call runs there. The other relay applies its own side: Accept
 * prompts (R-PERM-07), the hop rule again, and R-UPD-12.
 */
export function forwardCall(
  ctx: ActionContext,
  peer: PeerRecord,
  call: RelayToolCall,
  input: unknown,
): Promise<ToolResult> {
  if (isSubscriptionCall(call)) {
    // §28: the other relay keeps the subscription; this relay keeps its mirror in step.
    return forwardSubscriptionCall(ctx, peer, call, input, (sent, details, checks) =>
      forwardToPeer(ctx, peer, call, sent, details, checks),
    );
  }
  return forwardToPeer(ctx, peer, call, input);
}

/**
 * `localDetails`: what this relay knows for the cards itself (a subscription's options,
 * R-FEW-24); `localChecks`: this relay's own checks of the call, run once the lock and the level
 * let it through and before any card (a transfer's conversation and limit here).
 */
async function forwardToPeer(
  ctx: ActionContext,
  paired: PeerRecord,
  call: RelayToolCall,
  input: unknown,
  localDetails?: CardDetails,
  localChecks?: () => Promise<void>,
): Promise<ToolResult> {
  const { stores } = ctx.deps;
  // What the peer said of itself, once this call asks it (the row may be older).
  let peer = paired;
  const caller = await ctx.loadCaller();
  // Reading never asks the owner: no card or counter query on the read path.
  const writes = isWrite({ action: call.action, forOtherSession: forOtherSession(ctx, call) });
  const [facts, unlock, approvals, promptsSinceOwnerWrote] = await Promise.all([
    callerFacts(ctx, caller),
    stores.unlocks.getRelayUnlock({ conversation: ctx.callerId, relay: peer.name }),
    writes ? approvalsOf(ctx, peer.name) : NO_APPROVALS,
    writes ? stores.loopCounters.getLoopCounter(ctx.callerId) : 0,
  ]);
  const relay: TargetRelay = {
    kind: "paired",
    name: peer.name,
    level: peer.level,
    unlock: unlock?.how ?? null,
  };
  const session = sessionArg(call);
  const evaluate = (known: ReturnType<typeof factsOf>): Decision =>
    evaluateCall({
      action: call.action,
      ...(session === undefined ? {} : { session }),
      ...(call.action === "answer_question" ? { questionId: call.question_id } : {}),
      // Whether a turn can show the cards is decided after the target's checks, below.
      caller: { ...facts, inTurn: true },
      relay,
      approvals,
      promptsSinceOwnerWrote,
      ...known,
      ...(localDetails === undefined ? {} : { details: { ...localDetails, ...known.details } }),
    });

  let decision = evaluate({});
  if (decision.kind === "refuse") {
    refuse(decision.code, decision.message);
  }
  // A relay too old for the call hears nothing of it, and the owner gets no card for it.
  const gateStatus = await refuseUnsupportedCall(ctx, peer, call);
  if (gateStatus !== undefined) {
    peer = seenAs(peer, gateStatus);
  }
  await localChecks?.();
  const asked = waitSecondsOf(call);
  const wait = asked === undefined ? undefined : cappedWait(ctx, asked);
  const forwarded: Record<string, unknown> = {
    ...(input as Record<string, unknown>),
    relay: "this",
    ...(wait === undefined ? {} : { wait_seconds: wait.seconds }),
  };
  const origin = originOf(ctx, caller, forwardedHops(facts.turnHops, relay), unlock?.how === "mention");

  if (decision.kind === "ask") {
    const status = await peerStatus(ctx.deps, ctx.live.peerStatus, peer);
    peer = seenAs(peer, status);
    // A relay without preflight would run the call: ask the owner first, with what is known here.
    if (status.features?.includes("preflight") !== false) {
      const checked = await exchange(
        ctx,
        peer,
        { call: forwarded, origin: { ...origin, preflight: true } },
        PEER_CALL_TIMEOUT_MS,
      );
      if (!checked.ok || !("preflight" in checked)) {
        // A refusal, or a call that needed no write there (nothing to change): that is the result.
        return relabel(checked, peer, wait?.notes ?? []);
      }
      const preflight = PeerPreflightSchema.safeParse(checked.preflight);
      decision = evaluate(preflight.success ? factsOf(preflight.data) : {});
    }
    if (decision.kind === "ask" && !facts.inTurn) {
      refuse(
        "REMOTE_RELAY_NO_ACTIVE_TURN",
        `${call.action} on relay "${peer.name}" needs the user's approval on a card, but this conversation has no turn in progress in which to ask. Nothing was done.`,
      );
    }
    await decide(ctx, decision);
  }
  const allowedOther =
    approvals.updateOtherSessions ||
    (decision.kind === "ask" && decision.cards.some((card) => card.kind === "update_other_session"));

  const result = await exchange(
    ctx,
    peer,
    {
      call: forwarded,
      origin: { ...origin, ...(allowedOther ? { approvals: { updateOtherSessions: true } } : {}) },
    },
    wait === undefined ? PEER_CALL_TIMEOUT_MS : wait.seconds * 1000 + PEER_WAIT_MARGIN_MS,
  );
  if (result.ok) {
    await countPrompt(ctx, call);
  }
  return relabel(result, peer, wait?.notes ?? []);
}
