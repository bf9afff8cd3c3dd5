import type { Wakeups } from "../wakeups";
import type { RuntimeContext } from "./runtime-context";
import type { TurnSnapshot } from "./session-runtime";
import { isWaitOver, type Snapshots } from "./turn-snapshot";
import type { WatchTurn } from "./turn-watch";
import { isOutage } from "./until-it-lands";

// Node fires a longer timer at once; no wait is that long (the longest wait is capped far below).
const MAX_TIMER_MS = 2_147_483_647;

export interface TurnWaits {
  wait(turnId: string, ms: number, signal?: AbortSignal): Promise<TurnSnapshot>;
  /** Ends every wait now, each with the snapshot of the moment (runtime shutdown). */
  endAll(): Promise<void>;
}

/**
 * Waits end at the first of: the turn ended, it waits on a question, `ms` of the clock's time
 * passed, or the caller's signal aborted. Each ends with the snapshot taken at that moment.
 */
export function createTurnWaits(
  ctx: RuntimeContext,
  parts: {
    readonly snapshots: Snapshots;
    readonly waiters: Wakeups;
    /** Set when other relay processes share the stores: their changes are looked for too. */
    readonly watch?: WatchTurn;
  },
): TurnWaits {
  const open = new Set<() => Promise<void>>();

  return {
    wait(turnId, ms, signal) {
      return new Promise<TurnSnapshot>((resolve, reject) => {
        let settled = false;
        let removeWake = () => {};
        let unwatch = () => {};
        let timer: ReturnType<typeof ctx.clock.setTimeout> | undefined;
        const cleanup = () => {
          settled = true;
          removeWake();
          unwatch();
          if (timer !== undefined) {
            ctx.clock.clearTimeout(timer);
          }
          signal?.removeEventListener("abort", onAbort);
          open.delete(endNow);
        };
        const look = async (force: boolean) => {
          try {
            const snapshot = await parts.snapshots.byId(turnId);
            if (!settled && (force || isWaitOver(snapshot.status))) {
              cleanup();
              resolve(snapshot);
            }
          } catch (error) {
            // While the database does not answer the wait goes on; it fails only when it ends.
            if (!settled && (force || !isOutage(error))) {
              cleanup();
              reject(error);
            }
          }
        };
        const endNow = () => look(true);
        const onAbort = () => void look(true);

        // The wake-up is registered before the first look, so an end between the two is not missed.
        removeWake = parts.waiters.add(turnId, () => void look(false));
        unwatch = parts.watch?.(turnId) ?? unwatch;
        open.add(endNow);
        if (ms <= 0 || signal?.aborted) {
          void look(true);
          return;
        }
        timer = ctx.clock.setTimeout(() => void look(true), Math.min(ms, MAX_TIMER_MS));
        signal?.addEventListener("abort", onAbort, { once: true });
        void look(false);
      });
    },

    async endAll() {
      await Promise.all([...open].map((endNow) => endNow()));
    },
  };
}
