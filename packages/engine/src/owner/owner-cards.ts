import { RelayError } from "@oar/core";
import type { CardRecord, CardStatus } from "@oar/permissions";
import type { OwnerCardAnswerBody } from "@oar/schema";
import { recordCardAnswered } from "../outbox/outbox";
import type { BlockingQuestionRecord, BlockingQuestionStatus } from "../ports/question-store";
import type { OwnerApprovalCard, OwnerCard, OwnerCardStatus, OwnerQuestionCard } from "./owner-api";
import { type OwnerContext, ownerChange } from "./owner-context";

const APPROVAL_OPTIONS = ["allow", "deny"] as const;

const REASONS: Record<CardRecord["kind"], string> = {
  first_create_session: "first session of this conversation",
  first_subscribe: "first watch of this conversation",
  write_in_mode: "write action in ask/plan mode",
  update_other_session: "change to a session this conversation did not start",
  transfer_subscriptions: "takes over another conversation's subscriptions",
  anti_loop: "more than 30 prompts to other agents since you last wrote",
};

function questionCard(question: BlockingQuestionRecord): OwnerQuestionCard {
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

function approvalCard(card: CardRecord): OwnerApprovalCard {
  const session = card.targetSession === null ? "" : ` session ${card.targetSession}`;
  return {
    id: card.id,
    kind: "approval",
    reason: card.kind,
    sessionId: card.conversation,
    action: card.action,
    targetRelay: card.targetRelay,
    targetSession: card.targetSession,
    text:
      card.text === ""
        ? `Allow ${card.action} on relay "${card.targetRelay}"${session}? (${REASONS[card.kind]})`
        : card.text,
    detail: card.detail,
    options: APPROVAL_OPTIONS,
    status: card.status,
    createdAt: card.createdAt,
    answeredAt: card.answeredAt,
    expiresAt: card.expiresAt,
  };
}

/** A question is `ended` when its turn ended unanswered; the owner's `expired` means the same for it. */
function questionStatus(status: OwnerCardStatus): BlockingQuestionStatus | null {
  switch (status) {
    case "pending":
    case "answered":
    case "ended":
      return status;
    case "expired":
      return "ended";
    default:
      return null;
  }
}

function approvalStatus(status: OwnerCardStatus): CardStatus | null {
  switch (status) {
    case "pending":
    case "allowed":
    case "denied":
    case "expired":
      return status;
    case "ended":
      return "expired";
    default:
      return null;
  }
}

/** Approval cards and blocking question cards (`ask_user`), oldest first within each kind. */
export async function listOwnerCards(ctx: OwnerContext, status?: OwnerCardStatus): Promise<OwnerCard[]> {
  const { questions, cards } = ctx.deps.stores;
  // Cards past their time are shown expired even before the waiting call notices.
  await cards.expireCards(ctx.deps.clock.now());
  const asQuestion = status === undefined ? undefined : questionStatus(status);
  const asApproval = status === undefined ? undefined : approvalStatus(status);
  const [approvals, asked] = await Promise.all([
    asApproval === null ? [] : cards.listCards(asApproval === undefined ? {} : { status: asApproval }),
    asQuestion === null
      ? []
      : questions.listBlockingQuestions(asQuestion === undefined ? {} : { status: asQuestion }),
  ]);
  return [...approvals.map(approvalCard), ...asked.map(questionCard)];
}

async function answerApproval(
  ctx: OwnerContext,
  card: CardRecord,
  body: OwnerCardAnswerBody,
): Promise<OwnerApprovalCard> {
  if (!("choice" in body)) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Card ${card.id} is an approval: send { "choice": "allow" } or { "choice": "deny" }.`,
    );
  }
  const decision = body.choice === "allow" ? "allowed" : "denied";
  const at = ctx.deps.clock.now();
  // The answer and its event are one change: every console open on the relay drops the card.
  const won = await ownerChange(ctx, async (tx) => {
    const { stores, ids, relay } = tx.deps;
    if (!(await stores.cards.answerCard({ id: card.id, decision, at }))) {
      return false;
    }
    const conversation = await stores.sessions.getSession(card.conversation);
    await recordCardAnswered(
      { stores, ids, relayName: relay.name },
      card,
      decision,
      { id: card.conversation, title: conversation?.title ?? "" },
      at,
    );
    return true;
  });
  const { cards } = ctx.deps.stores;
  const now = (await cards.getCard(card.id)) ?? card;
  // The call waiting on it, if in this process, goes on at once.
  ctx.live.cardAnswers.notify(card.id);
  if (!won) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Card ${card.id} is no longer pending (${now.status === "pending" ? "expired" : now.status}).`,
    );
  }
  return approvalCard(now);
}

/** The owner answers a card: an approval lets the waiting call run or refuses it; a question lets its turn go on. */
export async function answerOwnerCard(
  ctx: OwnerContext,
  id: string,
  body: OwnerCardAnswerBody,
): Promise<OwnerCard> {
  const { questions, cards } = ctx.deps.stores;
  const approval = await cards.getCard(id);
  if (approval) {
    return answerApproval(ctx, approval, body);
  }
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
  return questionCard((await questions.getBlockingQuestion(id)) ?? question);
}
