import type { CallOf } from "@oar/schema";
import type { TurnRecord } from "../ports/session-store";
import type { ActionContext, ActionSuccess } from "./context";
import { refuse } from "./refusal";
import { refuseSelf, requireSession } from "./sessions";
import { waitForTurn } from "./waiting";

// Without message_id, the latest prompt is among the session's last messages.
const MESSAGES_SCANNED = 50;

async function turnOfPrompt(ctx: ActionContext, sessionId: string, messageId: string): Promise<TurnRecord> {
  const turn = await ctx.runtime.turnOfMessage(messageId);
  if (!turn || turn.sessionId !== sessionId) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `No prompt "${messageId}" in session ${sessionId}: message_id is the one send or create_session returned for that session.`,
    );
  }
  return turn;
}

/** The session's latest prompt: the last one queued, else the last one that ran. */
async function latestTurn(ctx: ActionContext, sessionId: string): Promise<TurnRecord> {
  const active = await ctx.deps.stores.sessions.listActiveTurns({ sessionId });
  const queuedLast = active.at(-1);
  if (queuedLast) {
    return queuedLast;
  }
  const messages = await ctx.deps.stores.sessions.listMessages(sessionId, { last: MESSAGES_SCANNED });
  for (const message of messages.reverse()) {
    if (message.role === "user") {
      const turn = await ctx.runtime.turnOfMessage(message.id);
      if (turn) {
        return turn;
      }
    }
  }
  return refuse("REMOTE_RELAY_NOT_FOUND", `Session ${sessionId} has no prompt to wait for.`);
}

/**
 * §18: keeps waiting for a reply that send or create_session did not get in time — the prompt
 * `message_id` names, or without it the session's latest prompt — under the waiting rules of §19.
 * Never on the caller's own conversation (R-WAIT-03).
 */
export async function wait(ctx: ActionContext, call: CallOf<"wait">): Promise<ActionSuccess> {
  refuseSelf(ctx, "wait", call.session);
  const session = await requireSession(ctx, call.session, { allowArchived: true });
  const turn =
    call.message_id === undefined
      ? await latestTurn(ctx, session.id)
      : await turnOfPrompt(ctx, session.id, call.message_id);
  const waited = await waitForTurn(ctx, turn, call.wait_seconds);
  return { session: session.id, details: waited.fields.status, fields: waited.fields, notes: waited.notes };
}
