import { RelayError } from "@oar/core";
import type { TurnWaitStatus } from "@oar/schema";
import type { TurnRecord } from "../ports/session-store";
import type { BlockingQuestions } from "./blocking-questions";
import type { RunningTurns } from "./running-turns";
import type { RuntimeContext } from "./runtime-context";
import type { TurnSnapshot } from "./session-runtime";

/** The statuses a wait ends on: the turn ended, or it needs an answer first. */
export function isWaitOver(status: TurnWaitStatus): boolean {
  return status !== "running" && status !== "queued";
}

/** Builds where a turn stands from its row, the in-flight text and its pending questions. */
export function createSnapshots(
  ctx: RuntimeContext,
  parts: { readonly running: RunningTurns; readonly questions: BlockingQuestions },
) {
  const of = async (turn: TurnRecord): Promise<TurnSnapshot> => {
    const live = parts.running.byTurn(turn.id);
    const pendingQuestions =
      turn.status === "running" ? await parts.questions.pending(turn.sessionId, turn.id) : [];
    let status: TurnWaitStatus;
    if (turn.status === "running") {
      status = pendingQuestions.length > 0 ? "waiting" : "running";
    } else {
      status = turn.status;
    }
    const ended = turn.status !== "running" && turn.status !== "queued";
    const model = live?.model || ((await ctx.stores.sessions.getSession(turn.sessionId))?.model ?? "");
    return {
      turnId: turn.id,
      sessionId: turn.sessionId,
      messageId: turn.promptMessageId ?? "",
      status,
      text: ended ? (turn.reply ?? "") : (live?.text ?? ""),
      model,
      error: turn.error,
      pendingQuestions,
    };
  };

  return {
    of,
    async byId(turnId: string): Promise<TurnSnapshot> {
      const turn = await ctx.stores.sessions.getTurn(turnId);
      if (!turn) {
        throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No turn ${turnId} on this relay.`, {
          context: { turn: turnId },
        });
      }
      return of(turn);
    },
  };
}

export type Snapshots = ReturnType<typeof createSnapshots>;
