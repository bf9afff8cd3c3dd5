import { type CallOf, LIMITS } from "@oar/schema";
import { recordInboxAsked } from "../../outbox/outbox";
import type { InboxQuestionRecord, QuestionStore } from "../../ports/question-store";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { gated } from "../gated";
import { refuse } from "../refusal";
import { requireSession } from "../sessions";

const NOTHING = "Nothing was asked.";

/** R-QLIM-01: 20 pending per asking conversation, 20 per session concerned. */
async function refuseOverLimit(
  questions: QuestionStore,
  asker: string,
  session: string,
  local: boolean,
): Promise<void> {
  const limit = LIMITS.pendingQuestionsPerConversation;
  const { asked, concerning } = await questions.countPendingInbox({
    askingSession: asker,
    sessionId: session,
  });
  if (local && asked >= limit) {
    refuse(
      "REMOTE_RELAY_QUESTION_LIMIT",
      `This conversation already has ${asked} non-blocking questions pending, the most it may (${limit}, R-QLIM-01). Wait for answers (question_answered), or withdraw one; list_questions shows them. ${NOTHING}`,
    );
  }
  if (concerning >= limit) {
    refuse(
      "REMOTE_RELAY_QUESTION_LIMIT",
      `Session ${session} already has ${concerning} non-blocking questions pending, the most one session may (${limit}, R-QLIM-01). ${NOTHING}`,
    );
  }
}

/** R-ASK-04: the same question still pending from the same conversation is that question, not a new one. */
async function samePending(
  ctx: ActionContext,
  call: CallOf<"ask">,
  session: string,
): Promise<InboxQuestionRecord | undefined> {
  const pending = await ctx.deps.stores.questions.listInboxQuestions({
    sessionId: session,
    closedSince: null,
  });
  return pending.find(
    (q) =>
      q.askingRelay === ctx.from.relay &&
      q.askingSession === ctx.from.session &&
      q.text === call.question.trim(),
  );
}

/** R-ASK-03: what `ask` answers, at once: the question and `pending`. */
function pending(call: CallOf<"ask">, questionId: string, notes: readonly string[] = []): ActionSuccess {
  const about = call.session === undefined ? {} : { session: call.session };
  return {
    ...about,
    details: `question ${questionId} pending`,
    fields: { question_id: questionId, status: "pending", ...about },
    ...(notes.length === 0 ? {} : { notes }),
  };
}

/**
 * §34.1: asks the owner without waiting (R-ASK-03). About this conversation it needs nothing
 * (R-QCHK-01); with `session` it is a write on that session (cards in ask/plan, the hop rule,
 * R-QCHK-03) and the card shows there (R-QCHK-04). The question and its event are one change.
 */
export async function ask(ctx: ActionContext, call: CallOf<"ask">): Promise<ActionSuccess> {
  const { stores, clock, ids } = ctx.deps;
  const local = ctx.from.relay === null;
  const sessionId = call.session ?? (local ? ctx.callerId : undefined);
  if (sessionId === undefined) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `session: another relay's agent asks about a session of relay "${ctx.deps.relay.name}"; name it with session. Its own questions it asks on its own relay. ${NOTHING}`,
    );
  }
  const session = await requireSession(ctx, sessionId, { allowArchived: false, nothing: NOTHING });
  const existing = await samePending(ctx, call, session.id);
  if (existing !== undefined) {
    return pending(call, existing.id, [
      `The same question (${existing.id}) is already pending (R-ASK-04): you will get question_answered; carry on with what does not depend on it.`,
    ]);
  }
  await refuseOverLimit(stores.questions, ctx.from.session, session.id, local);
  if (session.id !== ctx.callerId || !local) {
    await gated(ctx, call, session);
  }
  const question = await changeAtomically(ctx, async (tx) => {
    const txStores = tx.deps.stores;
    // Counted again inside the change: two calls at once cannot both take the 20th place.
    await refuseOverLimit(txStores.questions, ctx.from.session, session.id, local);
    const created = await txStores.questions.createInboxQuestion({
      id: ids.next("ask"),
      askingRelay: ctx.from.relay,
      askingSession: ctx.from.session,
      sessionId: session.id,
      text: call.question.trim(),
      options: call.options ?? [],
      recommendation: call.recommendation ?? null,
      detail: call.detail ?? null,
      provenance: null,
      createdAt: clock.now(),
    });
    await recordInboxAsked({ stores: txStores, ids, relayName: ctx.deps.relay.name }, created, session);
    return created;
  });
  return pending(call, question.id);
}
