import { RelayError, toIso } from "@oar/core";
import type { PeerQuestionStatus } from "@oar/schema";
import type { EngineDeps } from "../ports/engine-deps";

/**
 * GET /v1/peer/questions/:id (R-QCHK-05): a question `relay` (the relay the invite is bound to)
 * asked here, with its status and answer. Another relay's, a blocking card, or unknown:
 * REMOTE_RELAY_NOT_FOUND, so a relay learns nothing of questions it did not ask.
 */
export async function peerQuestion(
  deps: EngineDeps,
  relay: string | null,
  id: string,
): Promise<PeerQuestionStatus> {
  const question = await deps.stores.questions.getInboxQuestion(id);
  if (question === null || relay === null || question.askingRelay !== relay) {
    throw new RelayError(
      "REMOTE_RELAY_NOT_FOUND",
      `No question ${id} that relay "${relay ?? "?"}" asked on relay "${deps.relay.name}".`,
    );
  }
  const session = await deps.stores.sessions.getSession(question.sessionId);
  return {
    question_id: question.id,
    status: question.status,
    answer: question.answer,
    choice: question.choice,
    dismissed: question.status === "dismissed",
    via: question.via,
    answeredAt: question.closedAt === null ? null : toIso(question.closedAt),
    session: { id: question.sessionId, title: session?.title ?? "" },
  };
}
