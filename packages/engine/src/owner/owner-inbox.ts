import { RelayError } from "@oar/core";
import type { OwnerInboxAnswerBody } from "@oar/schema";
import { recordInboxAnswered } from "../outbox/outbox";
import {
  CLOSED_QUESTIONS_SHOWN_MS,
  type InboxItem,
  inboxItem,
  questionTitles,
} from "../questions/question-views";
import { type OwnerContext, ownerChange } from "./owner-context";

/**
 * GET /v1/owner/inbox: the non-blocking questions pending on this relay, oldest first; with
 * `closed`, also those answered, dismissed, withdrawn or ended in the last day.
 */
export async function listOwnerInbox(
  ctx: OwnerContext,
  options: { readonly closed?: boolean } = {},
): Promise<InboxItem[]> {
  const { stores, clock } = ctx.deps;
  const questions = await stores.questions.listInboxQuestions({
    closedSince: options.closed === true ? clock.now() - CLOSED_QUESTIONS_SHOWN_MS : null,
  });
  const titles = await questionTitles(stores, questions);
  return questions.map((q) => inboxItem(q, titles));
}

/**
 * POST /v1/owner/inbox/:id: the owner answers, picks an option, or dismisses. The question's
 * close and its `question_answered` event are one change (DESIGN §9); the asker and the session
 * concerned get the event with no subscription (R-QANS-02, R-QCHK-04).
 */
export async function answerOwnerInbox(
  ctx: OwnerContext,
  id: string,
  body: OwnerInboxAnswerBody,
): Promise<InboxItem> {
  const { stores, clock, relay, ids } = ctx.deps;
  const question = await stores.questions.getInboxQuestion(id);
  if (question === null) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No question ${id} in this relay's Inbox.`);
  }
  if (question.keptOnRelay !== null) {
    // Answering through this relay would need a peer route for answers, which the peer surface
    // does not have (DESIGN §4): the owner answers where the question is kept.
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Question ${id} is kept on paired relay "${question.keptOnRelay}" (R-QCHK-05): answer it in that relay's Inbox; this relay hears the answer within seconds. Nothing was answered.`,
    );
  }
  if (question.status !== "pending") {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Question ${id} is no longer pending (${question.status}).`,
    );
  }
  if (body.choice !== undefined && !question.options.includes(body.choice)) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      question.options.length === 0
        ? `Question ${id} offers no options: send { "answer": "…" } or { "dismiss": true }. Nothing was answered.`
        : `choice must be one of the question's options (${question.options.join(", ")}); got ${body.choice}. Nothing was answered.`,
    );
  }
  const closed = await ownerChange(ctx, async (tx) => {
    const txStores = tx.deps.stores;
    const done = await txStores.questions.closeInboxQuestion({
      id,
      status: body.dismiss === true ? "dismissed" : "answered",
      answer: body.answer ?? null,
      choice: body.choice ?? null,
      via: relay.name,
      at: clock.now(),
    });
    if (done === null) {
      throw new RelayError("REMOTE_RELAY_INVALID_INPUT", `Question ${id} was closed meanwhile.`);
    }
    const session = (await txStores.sessions.getSession(done.sessionId)) ?? { id: done.sessionId, title: "" };
    await recordInboxAnswered({ stores: txStores, ids, relayName: relay.name }, done, session);
    return done;
  });
  return inboxItem(closed, await questionTitles(stores, [closed]));
}
