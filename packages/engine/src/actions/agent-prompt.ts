import type { CallOf, Mode } from "@oar/schema";
import type { Provenance, TurnRecord } from "../ports/session-store";
import { countPrompt } from "./approvals";
import type { ActionContext } from "./context";
import { openToSender, promptText } from "./sender";

/**
 * The prompt of an agent's send or create_session, written in the call's transaction (`tx`):
 * the message and its turn, the sender's relay opened in the session (R-LOCK-01(b)) and the
 * anti-loop count (GAP-04 (f)). The caller kicks the session's queue once it is committed.
 */
export async function queueAgentPrompt(
  tx: ActionContext,
  call: CallOf<"send"> | CallOf<"create_session">,
  prompt: { readonly sessionId: string; readonly provenance: Provenance; readonly mode: Mode },
): Promise<TurnRecord> {
  const { sessionId, provenance, mode } = prompt;
  const { turn } = await tx.runtime.queuePrompt(tx.deps.stores, {
    sessionId,
    text: promptText(tx, call.text),
    origin: { kind: "agent", provenance, mode },
    provenance,
  });
  await openToSender(tx, sessionId);
  await countPrompt(tx, call);
  return turn;
}
