import type { CallOf } from "@oar/schema";
import { CLOSED_QUESTIONS_SHOWN_MS, questionEntry, questionTitles } from "../../questions/question-views";
import type { ActionContext, ActionSuccess } from "../context";
import { requireSession } from "../sessions";
import { plural } from "../summary";

/**
 * §34.5: the conversation's non-blocking questions (asked by it or about it), or with `session`
 * those about another session (R-LQ-02): pending ones and those closed within the last day.
 */
export async function listQuestions(
  ctx: ActionContext,
  call: CallOf<"list_questions">,
): Promise<ActionSuccess> {
  const { stores, clock } = ctx.deps;
  const closedSince = clock.now() - CLOSED_QUESTIONS_SHOWN_MS;
  let questions: Awaited<ReturnType<typeof stores.questions.listInboxQuestions>>;
  if (call.session !== undefined) {
    await requireSession(ctx, call.session, { allowArchived: true });
    questions = await stores.questions.listInboxQuestions({ sessionId: call.session, closedSince });
  } else if (ctx.from.relay === null) {
    questions = await stores.questions.listInboxQuestions({
      askingSession: ctx.callerId,
      sessionId: ctx.callerId,
      closedSince,
    });
  } else {
    // R-LQ-03: another relay's conversation sees the questions it asked here.
    // (The store's askingSession filter reads this relay's askers only.)
    questions = (await stores.questions.listInboxQuestions({ closedSince })).filter(
      (q) => q.askingRelay === ctx.from.relay && q.askingSession === ctx.from.session,
    );
  }
  const titles = await questionTitles(stores, questions);
  const pending = questions.filter((q) => q.status === "pending").length;
  const closed = questions.length - pending;
  return {
    ...(call.session === undefined ? {} : { session: call.session }),
    details: `${plural(pending, "question")} pending${closed > 0 ? `, ${closed} closed in the last day` : ""}`,
    fields: { questions: questions.map((q) => questionEntry(q, titles)) },
  };
}
