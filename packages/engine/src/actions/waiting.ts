import { toIso } from "@oar/core";
import type { PendingQuestion, Reply, TurnWaitStatus } from "@oar/schema";
import type { TurnRecord } from "../ports/session-store";
import type { PendingQuestionView, TurnSnapshot } from "../runtime/session-runtime";
import { isOutage } from "../shared/outage";
import type { ActionContext } from "./context";
import { refuse } from "./refusal";

/** What send, create_session and wait return about the prompt's turn (R-WST-05, R-WST-06, GAP-10). */
export interface TurnResultFields {
  readonly status: TurnWaitStatus;
  readonly session: string;
  readonly message_id: string;
  readonly reply?: Reply;
  readonly pendingQuestions?: PendingQuestion[];
  readonly errorMessage?: string;
  readonly openUrl?: string;
}

export interface WaitedTurn {
  readonly fields: TurnResultFields;
  /** The cap note when the call asked for more than the relay allows (R-WST-03). */
  readonly notes: string[];
}

/** A question as read_session and turn results show it (R-RSES-02). */
export function pendingQuestionView(question: PendingQuestionView): PendingQuestion {
  return {
    question_id: question.id,
    kind: question.kind,
    text: question.text,
    ...(question.options.length > 0 ? { options: [...question.options] } : {}),
    askedAt: toIso(question.createdAt),
  };
}

/** The result fields for a turn as it stands: the whole reply when done, the text so far otherwise. */
export function turnResultFields(ctx: ActionContext, snapshot: TurnSnapshot): TurnResultFields {
  const hasReply = snapshot.status === "done" || snapshot.text !== "";
  const openUrl = ctx.deps.openUrl?.(snapshot.sessionId);
  return {
    status: snapshot.status,
    session: snapshot.sessionId,
    message_id: snapshot.messageId,
    ...(hasReply ? { reply: { text: snapshot.text, model: snapshot.model } } : {}),
    ...(snapshot.status === "waiting"
      ? { pendingQuestions: snapshot.pendingQuestions.map(pendingQuestionView) }
      : {}),
    ...(snapshot.status === "error" && snapshot.error !== null ? { errorMessage: snapshot.error } : {}),
    ...(openUrl === undefined ? {} : { openUrl }),
  };
}

/**
 * The wait a call gets: what it asked, up to the owner's longest wait on the relay where the
 * agent runs (R-WST-01), with the note that says so when it asked for more (R-WST-03).
 */
export function cappedWait(
  ctx: ActionContext,
  waitSeconds: number,
): { readonly seconds: number; readonly notes: string[] } {
  const longest = ctx.settings.agentSessions.longestWaitSeconds;
  return {
    seconds: Math.min(waitSeconds, longest),
    notes:
      waitSeconds > longest
        ? [
            `wait_seconds ${waitSeconds} is more than this relay allows: it waited at most ${longest} s (Longest wait per tool call). Call wait to keep waiting.`,
          ]
        : [],
  };
}

const ENDED: readonly TurnWaitStatus[] = ["done", "error", "stopped"];

/**
 * R-ECHO-01: the conversation that prompted the turn now has its finished reply, so that turn's
 * turn_end does not wake it a second time. The reply is already in hand: a failure to note it
 * costs at most that second wake-up, never the call.
 */
async function noteCollectedReply(
  ctx: ActionContext,
  turn: TurnRecord,
  status: TurnWaitStatus,
): Promise<void> {
  const from = turn.origin.provenance;
  if (
    ctx.peer ||
    !ENDED.includes(status) ||
    from?.session !== ctx.callerId ||
    from.relay !== ctx.deps.relay.name
  ) {
    return;
  }
  await ctx.deps.stores.deliveries
    .recordCollectedReply({ turnId: turn.id, sessionId: ctx.callerId, at: ctx.deps.clock.now() })
    .catch((error: unknown) =>
      ctx.deps.logger?.warn("A collected reply could not be noted; its turn_end may wake the caller.", {
        turn: turn.id,
        error,
      }),
    );
}

/**
 * Waits for the turn as long as the call asked in `wait_seconds`, up to the owner's longest wait
 * (R-WST-01 … R-WST-03); 0 does not wait (R-WST-07). When the time is up the result holds what
 * there is so far, and the agent can call `wait` again.
 */
export async function waitForTurn(
  ctx: ActionContext,
  turn: TurnRecord,
  waitSeconds: number,
): Promise<WaitedTurn> {
  const { seconds, notes } = cappedWait(ctx, waitSeconds);
  try {
    const snapshot =
      seconds === 0
        ? await ctx.runtime.snapshot(turn.id)
        : await ctx.runtime.waitForTurn(turn.id, seconds * 1000, ctx.signal);
    await noteCollectedReply(ctx, turn, snapshot.status);
    return { fields: turnResultFields(ctx, snapshot), notes };
  } catch (error) {
    if (!isOutage(error)) {
      throw error;
    }
    // The prompt is in: a retry of the whole call would send it twice. Only waiting failed.
    return refuse(
      "REMOTE_RELAY_UNAVAILABLE",
      `The relay's database stopped answering while this call waited for the reply to prompt ${turn.promptMessageId ?? turn.id} in session ${turn.sessionId}. The prompt itself is queued: call wait with that message_id once the relay answers again, do not send it again.`,
    );
  }
}
