import { isRelayError } from "@oar/core";
import type { CallOf } from "@oar/schema";
import type { ActionContext } from "../actions/context";
import { recordInboxAnswered } from "../outbox/outbox";
import type { EngineDeps } from "../ports/engine-deps";
import type { PeerRecord } from "../ports/peer-store";
import type { InboxQuestionRecord } from "../ports/question-store";
import type { ToolResult } from "../ports/tool-result";

/** R-QCHK-05: a question kept on a paired relay is looked at every 5 s, every 30 s while that relay does not respond. */
export const QUESTION_POLL_MS = 5_000;
export const QUESTION_POLL_UNREACHABLE_MS = 30_000;
const POLL_TIMEOUT_MS = 10_000;

/**
 * An `ask` about a session of a paired relay went through: that relay keeps the question; this
 * one keeps a copy (same id) that its poller looks at until it closes, so the asker gets
 * question_answered here (R-QCHK-05).
 */
export async function keepRemoteQuestion(
  ctx: ActionContext,
  peer: PeerRecord,
  call: CallOf<"ask">,
  result: ToolResult,
): Promise<void> {
  if (!result.ok || typeof result.question_id !== "string" || call.session === undefined) {
    return;
  }
  const now = ctx.deps.clock.now();
  const existing = await ctx.deps.stores.questions.getInboxQuestion(result.question_id);
  if (existing !== null) {
    // The same question still pending there (R-ASK-04): the copy is already kept.
    return;
  }
  await ctx.deps.stores.questions.createInboxQuestion({
    id: result.question_id,
    askingRelay: null,
    askingSession: ctx.callerId,
    sessionId: call.session,
    text: call.question.trim(),
    options: call.options ?? [],
    recommendation: call.recommendation ?? null,
    detail: call.detail ?? null,
    provenance: null,
    createdAt: now,
    keptOnRelay: peer.name,
    nextPollAt: now + QUESTION_POLL_MS,
  });
  ctx.live.questionPolls.notify();
}

/**
 * Asks the relay that keeps `copy` how it stands. Answered or dismissed: the copy closes with
 * its question_answered event for the asker, in one change (R-QANS-01: `via` the relay where the
 * owner answered). Withdrawn or ended there, or unknown there: the copy closes silently. Still
 * pending: the next look in 5 s; no answer from the relay: in 30 s (set when it was claimed).
 */
export async function pollRemoteQuestion(deps: EngineDeps, copy: InboxQuestionRecord): Promise<void> {
  const { stores, clock, peerLink } = deps;
  const relay = copy.keptOnRelay as string;
  const peer = await stores.peers.getPeer(relay);
  if (peer === null) {
    // R-WDR-03: the pairing is gone, and the question with it.
    await stores.questions.closeInboxQuestion({ id: copy.id, status: "ended", at: clock.now() });
    return;
  }
  if (peerLink === undefined) {
    return;
  }
  let status: Awaited<ReturnType<typeof peerLink.question>>;
  try {
    status = await peerLink.question(peer, copy.id, { timeoutMs: POLL_TIMEOUT_MS });
  } catch (error) {
    if (isRelayError(error) && error.code === "REMOTE_RELAY_NOT_FOUND") {
      await stores.questions.closeInboxQuestion({ id: copy.id, status: "ended", at: clock.now() });
    }
    return;
  }
  if (status.status === "pending") {
    await stores.questions.setNextPoll(copy.id, clock.now() + QUESTION_POLL_MS);
    return;
  }
  await stores.transaction(async (tx) => {
    const closed = await tx.questions.closeInboxQuestion({
      id: copy.id,
      status: status.status === "pending" ? "ended" : status.status,
      answer: status.answer,
      choice: status.choice,
      via: status.via ?? relay,
      at: clock.now(),
    });
    if (closed !== null && (closed.status === "answered" || closed.status === "dismissed")) {
      await recordInboxAnswered({ stores: tx, ids: deps.ids, relayName: deps.relay.name }, closed, {
        id: closed.sessionId,
        title: status.session?.title ?? "",
      });
    }
  });
}
