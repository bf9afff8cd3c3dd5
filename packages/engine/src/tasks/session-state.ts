import type { SessionState } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
import type { SessionRecord } from "../ports/session-store";
import type { TaskRecord } from "../ports/task-store";

/**
 * What a session is doing once a turn or task ended (R-LSES-02): still running a turn, only
 * background work (the agent replied, tasks still run), or nothing.
 */
async function settledState(
  stores: Pick<EngineStores, "sessions" | "tasks">,
  sessionId: string,
): Promise<SessionState> {
  // A queued turn is about to run: the session stays busy with turns.
  if ((await stores.sessions.listActiveTurns({ sessionId })).length > 0) {
    return "running_turn";
  }
  return (await runningTasksOf(stores, sessionId)).length > 0 ? "background_only" : "idle";
}

/**
 * Sets the session's state from what still runs (`settledState`), in the caller's transaction,
 * once it holds the session's row: a turn and a task of the session ending at once then read
 * each other's end (Postgres), not both the other as still running. Resolves with the session
 * as it is now (`null` when it is gone).
 */
export async function settleSessionState(
  stores: Pick<EngineStores, "sessions" | "tasks">,
  sessionId: string,
): Promise<SessionRecord | null> {
  await stores.sessions.lockSession(sessionId);
  return stores.sessions.updateSession(sessionId, { state: await settledState(stores, sessionId) });
}

/** The session's tasks that still run (on any relay process). */
export function runningTasksOf(
  stores: Pick<EngineStores, "sessions" | "tasks">,
  sessionId: string,
): Promise<TaskRecord[]> {
  return stores.tasks.listTasksOfSessions([sessionId], { endedSince: null });
}
