import type { SessionState } from "@oar/schema";
import type { EngineStores } from "../engine";
import type { TaskRecord } from "../ports/task-store";

/**
 * What a session is doing once a turn or task ended (R-LSES-02): still running a turn, only
 * background work (the agent replied, tasks still run), or nothing.
 */
export async function settledState(stores: EngineStores, sessionId: string): Promise<SessionState> {
  // A queued turn is about to run: the session stays busy with turns.
  if ((await stores.sessions.listActiveTurns({ sessionId })).length > 0) {
    return "running_turn";
  }
  return (await runningTasksOf(stores, sessionId)).length > 0 ? "background_only" : "idle";
}

/** The session's tasks that still run (on any relay process). */
export function runningTasksOf(stores: EngineStores, sessionId: string): Promise<TaskRecord[]> {
  return stores.tasks.listTasksOfSessions([sessionId], { endedSince: null });
}
