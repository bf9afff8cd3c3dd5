import { sleep } from "@oar/core";
import {
  type Approvals,
  type CardDetails,
  type CardRecord,
  type CardRequest,
  countsAsPromptToAgent,
  evaluateCall,
  isWrite,
  type TargetSessionFacts,
} from "@oar/permissions";
import type { RelayToolCall } from "@oar/schema";
import type { ActionContext } from "./context";
import { refuse } from "./refusal";

/** How often a call waiting on a card looks at it again (the owner answers through another request). */
export const CARD_POLL_MS = 500;

/** The facts of the session a call acts on, when the action has read it (update_session). */
export interface GateTarget {
  readonly target?: TargetSessionFacts;
  readonly details?: CardDetails;
}

async function approvalsOf(ctx: ActionContext): Promise<Approvals> {
  const allowed = await ctx.deps.stores.cards.listCards({ conversation: ctx.callerId, status: "allowed" });
  const relay = ctx.deps.relay.name;
  return {
    createSession: allowed.some((card) => card.kind === "first_create_session"),
    subscribe: allowed.some((card) => card.kind === "first_subscribe"),
    updateOtherSessions: allowed.some(
      (card) => card.kind === "update_other_session" && card.targetRelay === relay,
    ),
  };
}

function sessionArg(call: RelayToolCall): string | undefined {
  return "session" in call && typeof call.session === "string" ? call.session : undefined;
}

/** Waits for the owner's answer, up to the card's expiry; then the card expires. */
async function awaitAnswer(ctx: ActionContext, card: CardRecord): Promise<CardRecord> {
  const { cards } = ctx.deps.stores;
  const { clock } = ctx.deps;
  for (;;) {
    const now = clock.now();
    const current = (await cards.getCard(card.id)) ?? card;
    if (current.status !== "pending") {
      return current;
    }
    if (ctx.signal?.aborted === true) {
      // The client went away: nothing runs; the card stays listed until it expires.
      refuse(
        "REMOTE_RELAY_PERMISSION",
        `The call was abandoned while approval card ${card.id} waited for the owner. Nothing was done.`,
      );
    }
    if (now >= current.expiresAt) {
      await cards.expireCards(now);
      return (await cards.getCard(card.id)) ?? { ...current, status: "expired" };
    }
    await sleep(clock, Math.min(CARD_POLL_MS, current.expiresAt - now));
  }
}

async function askOwner(ctx: ActionContext, request: CardRequest): Promise<void> {
  const { deps } = ctx;
  const now = deps.clock.now();
  const card = await deps.stores.cards.createCard({
    id: deps.ids.next("card"),
    kind: request.kind,
    conversation: ctx.callerId,
    action: request.action,
    targetRelay: request.targetRelay,
    targetSession: request.targetSession,
    detail: request.detail,
    createdAt: now,
    expiresAt: now + ctx.settings.agentSessions.longestWaitSeconds * 1000,
  });
  const answered = await awaitAnswer(ctx, card);
  if (answered.status === "allowed") {
    if (request.kind === "anti_loop") {
      // Allow on the anti-loop card is the owner stepping in: the count starts again (GAP-04 (f)).
      await deps.stores.loopCounters.resetLoopCounter(ctx.callerId);
    }
    return;
  }
  const what = answered.status === "denied" ? "The owner denied" : "The owner did not answer in time on";
  refuse(
    "REMOTE_RELAY_PERMISSION",
    `${what} the approval card ${card.id} (${request.kind}) for ${request.action} on relay "${request.targetRelay}"${request.targetSession === null ? "" : ` session ${request.targetSession}`}. Nothing was done.`,
  );
}

/**
 * The permission engine's decision for this call on this relay (DESIGN GAP-04): a refusal throws,
 * "ask" raises each card in turn and waits for the owner, allow returns. The session rules this
 * engine checks itself (one level, 4 at work, hops) are left to the actions, so they are passed
 * as facts that never refuse here.
 */
export async function gateCall(
  ctx: ActionContext,
  call: RelayToolCall,
  facts: GateTarget = {},
): Promise<void> {
  const session = sessionArg(call);
  // Reading never asks the owner, and what could refuse it on this relay (the agent-sessions
  // switch, the self rules) the engine has checked already: no card query for the hot read path.
  if (!isWrite({ action: call.action, forOtherSession: session !== undefined && session !== ctx.callerId })) {
    return;
  }
  const caller = await ctx.loadCaller();
  const { stores } = ctx.deps;
  const [approvals, promptsSinceOwnerWrote] = await Promise.all([
    approvalsOf(ctx),
    stores.loopCounters.getLoopCounter(ctx.callerId),
  ]);
  const decision = evaluateCall({
    action: call.action,
    ...(session === undefined ? {} : { session }),
    caller: {
      session: ctx.callerId,
      mode: caller.mode,
      // An external agent's turns are not run by the relay: it always counts as in a turn (GAP-04).
      inTurn: ctx.runtime.inFlight(ctx.callerId) !== null || caller.provider === "external",
      startedByAgent: false,
      mayCreateSessions: true,
      turnHops: 0,
    },
    relay: {
      kind: "self",
      name: ctx.deps.relay.name,
      agentSessionsEnabled: ctx.settings.agentSessions.enabled,
    },
    ...(facts.target === undefined ? {} : { target: facts.target }),
    approvals,
    promptsSinceOwnerWrote,
    ...(facts.details === undefined ? {} : { details: facts.details }),
  });
  if (decision.kind === "refuse") {
    refuse(decision.code, decision.message);
  }
  if (decision.kind === "ask") {
    for (const request of decision.cards) {
      await askOwner(ctx, request);
    }
  }
}

/** After a prompt to another agent ran, the anti-loop guard counts it (GAP-04 (f)). */
export async function countPrompt(ctx: ActionContext, call: RelayToolCall): Promise<void> {
  const session = sessionArg(call);
  const forOtherSession = session !== undefined && session !== ctx.callerId;
  if (countsAsPromptToAgent({ action: call.action, forOtherSession })) {
    await ctx.deps.stores.loopCounters.incrementLoopCounter(ctx.callerId);
  }
}
