import { errorMessage } from "../shared/error-message";
import type { Wakeups } from "../wakeups";
import type { RuntimeContext } from "./runtime-context";

/** How soon a wait here sees a turn another relay process ended or stopped on a question (DESIGN §9). */
export const TURN_POLL_MS = 500;

/** Registers a turn some wait of this process is waiting on; the returned function unregisters it. */
export type WatchTurn = (turnId: string) => () => void;

/**
 * With stores shared by other relay processes, a turn may end, or start waiting on a question,
 * in another process: no wake-up of this one says so. While any wait is open, one look every
 * TURN_POLL_MS (two queries, however many waits) wakes the waits whose turn is no longer active
 * or has a question pending; each then reads its own snapshot.
 */
export function createTurnWatch(ctx: RuntimeContext, waiters: Wakeups): WatchTurn {
  const watched = new Map<string, number>();
  let timer: ReturnType<typeof ctx.clock.setTimeout> | undefined;

  const look = async () => {
    timer = undefined;
    try {
      const [active, pending] = await Promise.all([
        ctx.stores.sessions.listActiveTurns(),
        ctx.stores.questions.listBlockingQuestions({ status: "pending" }),
      ]);
      const stillActive = new Set(active.map((turn) => turn.id));
      const asking = new Set(pending.map((question) => question.turnId));
      for (const turnId of watched.keys()) {
        if (!stillActive.has(turnId) || asking.has(turnId)) {
          waiters.notify(turnId);
        }
      }
    } catch (error) {
      ctx.logger.warn("Looking for turns other relay processes ended failed; trying again.", {
        error: errorMessage(error),
      });
    }
    schedule();
  };

  const schedule = () => {
    if (timer === undefined && watched.size > 0 && !ctx.isClosed()) {
      timer = ctx.clock.setTimeout(() => void look(), TURN_POLL_MS);
    }
  };

  return (turnId) => {
    watched.set(turnId, (watched.get(turnId) ?? 0) + 1);
    schedule();
    return () => {
      const count = (watched.get(turnId) ?? 1) - 1;
      if (count > 0) {
        watched.set(turnId, count);
        return;
      }
      watched.delete(turnId);
      if (watched.size === 0 && timer !== undefined) {
        ctx.clock.clearTimeout(timer);
        timer = undefined;
      }
    };
  };
}
