import {
  type Approvals,
  type CallerFacts,
  type CardRecord,
  type CardRequest,
  countsAsPromptToAgent,
  type Decision,
  evaluateCall,
  isWrite,
} from "@oar/permissions";
import type { RelayToolCall } from "@oar/schema";
import { recordCardRaised } from "../outbox/outbox";
import type { ActionContext, CallerProfile, GateTarget } from "./context";
import { findProvider } from "./providers";
import { enforce, refuse } from "./refusal";
import { callerTurnHops } from "./sessions";

/**
 * How often a call waiting on a card looks at it again when no answer through this process woke
 * it (an owner API of another process sharing the database, DESIGN §9).
 */
export const CARD_POLL_MS = 500;

/** Cards of this conversation the owner allowed that cover later calls on `relay` (GAP-04 (a), (b), (d)). */
export async function approvalsOf(ctx: ActionContext, relay: string): Promise<Approvals> {
  const allowed = await ctx.deps.stores.cards.listCards({ conversation: ctx.callerId, status: "allowed" });
  return {
    createSession: allowed.some((card) => card.kind === "first_create_session"),
    subscribe: allowed.some((card) => card.kind === "first_subscribe"),
    updateOtherSessions: allowed.some(
      (card) => card.kind === "update_other_session" && card.targetRelay === relay,
    ),
  };
}

/** The call's `session` argument, when it has one. */
export function sessionArg(call: RelayToolCall): string | undefined {
  return "session" in call && typeof call.session === "string" ? call.session : undefined;
}

/** Whether the call names a session other than the caller's own (ask and schedule for another session). */
export function forOtherSession(ctx: ActionContext, call: RelayToolCall): boolean {
  const session = sessionArg(call);
  return session !== undefined && session !== ctx.callerId;
}

/** The calling conversation as the permission engine sees it. */
export async function callerFacts(ctx: ActionContext, caller: CallerProfile): Promise<CallerFacts> {
  // An external agent's turns are not run by the relay: it always counts as in a turn (GAP-04).
  const external =
    caller.provider !== null && findProvider(ctx.deps, caller.provider)?.info.drivenFromOutside;
  return {
    session: ctx.callerId,
    mode: caller.mode,
    inTurn: ctx.runtime.inFlight(ctx.callerId) !== null || external === true,
    startedByAgent: caller.startedByAgent,
    mayCreateSessions: caller.mayCreateSessions,
    turnHops: await callerTurnHops(ctx),
  };
}

/** Waits for the owner's answer, up to the card's expiry; then the card expires. */
async function awaitAnswer(ctx: ActionContext, card: CardRecord): Promise<CardRecord> {
  const { cards } = ctx.deps.stores;
  const { clock } = ctx.deps;
  const { cardAnswers } = ctx.live;
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
    await new Promise<void>((resolve) => {
      const stop = cardAnswers.add(card.id, () => done());
      const timer = clock.setTimeout(() => done(), Math.min(CARD_POLL_MS, current.expiresAt - now));
      function done() {
        stop();
        clock.clearTimeout(timer);
        resolve();
      }
    });
  }
}

/** Raises one card and waits for it; Deny or expiry refuses the call with REMOTE_RELAY_PERMISSION. */
async function askOwner(ctx: ActionContext, request: CardRequest): Promise<void> {
  const { deps } = ctx;
  const now = deps.clock.now();
  // The card and its event are one change: an owner's console never misses a card it must answer.
  const card = await deps.stores.transaction(async (stores) => {
    const raised = await stores.cards.createCard({
      id: deps.ids.next("card"),
      kind: request.kind,
      conversation: ctx.callerId,
      action: request.action,
      targetRelay: request.targetRelay,
      targetSession: request.targetSession,
      text: request.text,
      detail: request.detail,
      createdAt: now,
      expiresAt: now + ctx.settings.agentSessions.longestWaitSeconds * 1000,
    });
    const conversation = await stores.sessions.getSession(ctx.callerId);
    await recordCardRaised(
      { stores, ids: deps.ids, relayName: deps.relay.name },
      raised,
      { id: ctx.callerId, title: conversation?.title ?? "" },
      now,
    );
    return raised;
  });
  const answered = await awaitAnswer(ctx, card);
  if (answered.status === "allowed") {
    if (request.kind === "anti_loop") {
      // Allow on the anti-loop card is the owner stepping in: the count starts again (GAP-04 (f)).
      // R-SCH-19: and releases its held firings; the count and the release are one change.
      await deps.stores.transaction(async (tx) => {
        await tx.loopCounters.resetLoopCounter(ctx.callerId);
        await tx.schedules.recheckHeld({ createdBy: ctx.callerId, at: deps.clock.now() });
      });
      ctx.live.scheduleChanges.notify();
    }
    return;
  }
  const what = answered.status === "denied" ? "The owner denied" : "The owner did not answer in time on";
  refuse(
    "REMOTE_RELAY_PERMISSION",
    `${what} the approval card ${card.id} (${request.kind}) for ${request.action} on relay "${request.targetRelay}"${request.targetSession === null ? "" : ` session ${request.targetSession}`}. Nothing was done.`,
  );
}

/** Applies a decision of the permission engine: a refusal throws, "ask" raises each card in turn and waits. */
export async function decide(ctx: ActionContext, decision: Decision): Promise<void> {
  if (decision.kind === "ask") {
    for (const request of decision.cards) {
      await askOwner(ctx, request);
    }
    return;
  }
  enforce(decision);
}

/**
 * The gate of this relay's own agents' calls on this relay (DESIGN GAP-04): reading never asks;
 * a write is evaluated by the permission engine with the facts the action found, and its cards
 * are raised and waited on. The session rules the actions check themselves (one level, 4 at
 * work) were checked before, so they are passed as facts that never refuse here. With approval
 * cards off (tests of other things), update_session of another session is refused instead.
 */
export async function localGate(
  ctx: ActionContext,
  call: RelayToolCall,
  facts: GateTarget = {},
): Promise<void> {
  const other = forOtherSession(ctx, call);
  if (!isWrite({ action: call.action, forOtherSession: other })) {
    return;
  }
  if (ctx.deps.approvalCards === false) {
    const { target } = facts;
    if (call.action === "update_session" && target !== undefined && !target.startedByCaller) {
      refuse(
        "REMOTE_RELAY_PERMISSION",
        `Session ${target.id} ("${target.title ?? target.id}") was not started by this conversation: changing it needs the owner's approval on a card, which this relay does not ask for. Nothing was changed.`,
      );
    }
    return;
  }
  const caller = await ctx.loadCaller();
  const session = sessionArg(call);
  const { stores } = ctx.deps;
  const relay = ctx.deps.relay.name;
  const [approvals, promptsSinceOwnerWrote, facts0] = await Promise.all([
    approvalsOf(ctx, relay),
    stores.loopCounters.getLoopCounter(ctx.callerId),
    callerFacts(ctx, caller),
  ]);
  await decide(
    ctx,
    evaluateCall({
      action: call.action,
      ...(session === undefined ? {} : { session }),
      caller: { ...facts0, startedByAgent: false, mayCreateSessions: true },
      relay: { kind: "self", name: relay, agentSessionsEnabled: ctx.settings.agentSessions.enabled },
      ...(facts.target === undefined ? {} : { target: facts.target }),
      approvals,
      promptsSinceOwnerWrote,
      ...(facts.details === undefined ? {} : { details: facts.details }),
    }),
  );
}

/**
 * The anti-loop guard counts a prompt this relay's conversation sent to another agent (GAP-04
 * (f)), with the prompt's own change where it is one of this relay's.
 */
export async function countPrompt(ctx: ActionContext, call: RelayToolCall): Promise<void> {
  // Another relay's agent is counted on its own relay, where its owner writes.
  if (ctx.peer) {
    return;
  }
  if (countsAsPromptToAgent({ action: call.action, forOtherSession: forOtherSession(ctx, call) })) {
    await ctx.deps.stores.loopCounters.incrementLoopCounter(ctx.callerId);
  }
}
