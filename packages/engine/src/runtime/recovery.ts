import type { RuntimeContext } from "./runtime-context";

export const RELAY_RESTARTED_MESSAGE = "The relay restarted while this turn was running.";

/**
 * On start, the turns still `running` belonged to a process that is gone: they end as `error`,
 * their question cards end, and the sessions' state says what runs now. Returns the sessions
 * with queued turns, whose queues the caller starts.
 */
export async function recoverAfterRestart(ctx: RuntimeContext): Promise<string[]> {
  const { sessions, questions } = ctx.stores;
  const now = ctx.clock.now();
  const failed = await sessions.failRunningTurns({ error: RELAY_RESTARTED_MESSAGE, endedAt: now });
  for (const turn of failed) {
    await questions.endBlockingQuestionsOfTurn({ turnId: turn.id, at: now });
  }
  const active = await sessions.listActiveTurns();
  const queued = [...new Set(active.map((turn) => turn.sessionId))];
  // A session left `running_turn` by a crash is idle until its queue claims its next turn.
  const stale = (await sessions.listSessions({ scope: "all" }))
    .filter((session) => session.state === "running_turn")
    .map((session) => session.id);
  for (const sessionId of new Set([...failed.map((turn) => turn.sessionId), ...stale])) {
    if (!queued.includes(sessionId)) {
      await sessions.updateSession(sessionId, { state: "idle" });
    }
  }
  return queued;
}
