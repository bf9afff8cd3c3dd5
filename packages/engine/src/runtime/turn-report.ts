import type { TurnRecord } from "../ports/session-store";
import type { RuntimeContext } from "./runtime-context";

/**
 * A turn's end, once it is committed: one log line (ids and timing, never its prompt or reply)
 * and the observer's count. `provider` is its session's, `null` when the session is gone.
 */
export function reportTurnEnded(
  ctx: Pick<RuntimeContext, "logger" | "observer">,
  turn: TurnRecord,
  provider: string | null,
): void {
  const durationMs = turn.startedAt === null || turn.endedAt === null ? null : turn.endedAt - turn.startedAt;
  ctx.logger.info("turn ended", {
    turn: turn.id,
    session: turn.sessionId,
    provider,
    status: turn.status,
    durationMs,
  });
  ctx.observer.turnEnded({ provider: provider ?? "unknown", status: turn.status, durationMs });
}
