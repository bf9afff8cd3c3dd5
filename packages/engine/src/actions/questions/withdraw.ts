import type { CallOf } from "@oar/schema";
import { type ActionContext, type ActionSuccess, changeAtomically } from "../context";
import { refuse } from "../refusal";

/** §34.6: the asking conversation takes back a question still pending (R-WDR-01/02); nobody is told. */
export async function withdraw(ctx: ActionContext, call: CallOf<"withdraw">): Promise<ActionSuccess> {
  const { stores, clock, relay } = ctx.deps;
  const id = call.question_id;
  const question = await stores.questions.getInboxQuestion(id);
  if (question === null) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `No non-blocking question "${id}" on relay "${relay.name}". list_questions shows this conversation's questions.`,
    );
  }
  if (question.askingSession !== ctx.from.session || question.askingRelay !== ctx.from.relay) {
    refuse(
      "REMOTE_RELAY_PERMISSION",
      `Question ${id} was asked by another conversation; only the conversation that asked it can withdraw it (R-WDR-02). Nothing was changed.`,
    );
  }
  if (question.status !== "pending") {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `question_id: ${id} is no longer pending (${question.status}); only a pending question can be withdrawn. list_questions shows its answer. Nothing was changed.`,
    );
  }
  await ctx.gate(call);
  const withdrawn = await changeAtomically(ctx, (tx) =>
    tx.deps.stores.questions.closeInboxQuestion({ id, status: "withdrawn", at: clock.now() }),
  );
  if (withdrawn === null) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `question_id: ${id} was answered or closed meanwhile; list_questions shows how. Nothing was changed.`,
    );
  }
  return { details: `question ${id} withdrawn`, fields: { question_id: id, status: "withdrawn" } };
}
