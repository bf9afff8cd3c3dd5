import { RelayError } from "@oar/core";
import type { OwnerCardAnswerBody } from "@oar/schema";
import type { OwnerCard } from "../engine";
import type { BlockingQuestionRecord, BlockingQuestionStatus } from "../ports/question-store";
import type { OwnerContext } from "./owner-context";

function card(question: BlockingQuestionRecord): OwnerCard {
  return {
    id: question.id,
    kind: "question",
    sessionId: question.sessionId,
    text: question.text,
    options: question.options,
    status: question.status,
    createdAt: question.createdAt,
  };
}

// Approval cards come with the permissions issue; until then every card is a blocking question (`ask_user`).
export async function listOwnerCards(
  ctx: OwnerContext,
  status?: BlockingQuestionStatus,
): Promise<OwnerCard[]> {
  const questions = await ctx.deps.stores.questions.listBlockingQuestions(
    status === undefined ? {} : { status },
  );
  return questions.map(card);
}

/** The owner answers a question card; the turn waiting on it goes on. */
export async function answerOwnerCard(
  ctx: OwnerContext,
  id: string,
  body: OwnerCardAnswerBody,
): Promise<OwnerCard> {
  const { questions } = ctx.deps.stores;
  const question = await questions.getBlockingQuestion(id);
  if (!question) {
    throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No card ${id} on this relay.`);
  }
  if ("choice" in body) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Card ${id} is a question, not an approval: send { "answer" } or { "choices" }, not a choice.`,
    );
  }
  if (question.status !== "pending") {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Card ${id} is no longer pending (${question.status}).`,
    );
  }
  const offered = new Set(question.options);
  const unknown = (body.choices ?? []).filter((choice) => !offered.has(choice));
  if (question.options.length > 0 && unknown.length > 0) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `choices must be among the card's options (${question.options.join(", ")}); got ${unknown.join(", ")}.`,
    );
  }
  const answered = await ctx.runtime.answerQuestion(id, {
    ...(body.answer === undefined ? {} : { answer: body.answer }),
    ...(body.choices === undefined ? {} : { choices: body.choices }),
  });
  if (!answered) {
    throw new RelayError("REMOTE_RELAY_INVALID_INPUT", `Card ${id} is no longer pending.`);
  }
  return card((await questions.getBlockingQuestion(id)) ?? question);
}
