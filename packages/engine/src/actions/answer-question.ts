import { answerQuestionRule } from "@oar/permissions";
import type { CallOf } from "@oar/schema";
import type { QuestionAnswer } from "../ports/provider";
import type { BlockingQuestionRecord } from "../ports/question-store";
import type { ActionContext, ActionSuccess } from "./context";
import { enforce, refuse } from "./refusal";
import { refuseSelf } from "./sessions";

const NOTHING_ANSWERED = "Nothing was answered.";

/** The pending blocking question; unknown → NOT_FOUND, the caller's own → FORBIDDEN, no longer pending → INVALID_INPUT. */
async function requirePendingQuestion(
  ctx: ActionContext,
  questionId: string,
): Promise<BlockingQuestionRecord> {
  const question = await ctx.deps.stores.questions.getBlockingQuestion(questionId);
  if (!question) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `No question card "${questionId}" on relay "${ctx.deps.relay.name}". read_session shows a session's pendingQuestions; answer_question takes the question_id of one of kind ask_user. ${NOTHING_ANSWERED}`,
    );
  }
  // R-ANS-04, R-LOCAL-06: the agent's own question is FORBIDDEN (for the user), not SELF.
  refuseSelf(ctx, "answer_question", question.sessionId);
  if (question.status !== "pending") {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `Question ${question.id} of session ${question.sessionId} is no longer pending (${question.status}): ${
        question.status === "answered"
          ? "someone answered it already."
          : "the turn that asked it has ended, so nothing waits for an answer."
      } ${NOTHING_ANSWERED}`,
    );
  }
  return question;
}

/** `choices` must be among the card's options when it offers some. */
function checkChoices(question: BlockingQuestionRecord, choices: readonly string[] | undefined): void {
  if (choices === undefined || question.options.length === 0) {
    return;
  }
  const offered = new Set(question.options);
  const unknown = choices.filter((choice) => !offered.has(choice));
  if (unknown.length > 0) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `choices must be among the options of question ${question.id}: ${question.options.join(", ")}; not ${unknown.join(", ")}. Pass answer for a free-text answer. ${NOTHING_ANSWERED}`,
    );
  }
}

/**
 * §20: answers a blocking question card (`ask_user`) on which another session of this relay
 * waits, with `choices`, `answer` or both (R-ANS-03, checked by the schema); the waiting turn then
 * goes on with the answer. Never a non-blocking question, an approval card or the caller's own
 * question (R-ANS-04/05): those are the user's.
 */
export async function answerQuestion(
  ctx: ActionContext,
  call: CallOf<"answer_question">,
): Promise<ActionSuccess> {
  // R-ANS-04/05, R-QANS-06: a non-blocking question or an approval card, told from the id alone.
  enforce(answerQuestionRule({ questionId: call.question_id }));
  const question = await requirePendingQuestion(ctx, call.question_id);
  checkChoices(question, call.choices);
  await ctx.gate(call, {
    target: { id: question.sessionId, startedByCaller: false, busy: true },
  });
  const answer: QuestionAnswer = {
    ...(call.answer === undefined ? {} : { answer: call.answer }),
    ...(call.choices === undefined ? {} : { choices: call.choices }),
  };
  if (!(await ctx.runtime.answerQuestion(question.id, answer))) {
    // Lost a race with the owner, another agent or the end of the turn.
    const now = await ctx.deps.stores.questions.getBlockingQuestion(question.id);
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `Question ${question.id} of session ${question.sessionId} was ${
        now?.status === "ended" ? "ended (its turn ended)" : "answered by someone else"
      } meanwhile. ${NOTHING_ANSWERED}`,
    );
  }
  return {
    session: question.sessionId,
    details: "answered",
    fields: { session: question.sessionId, question_id: question.id, ...answer },
  };
}
