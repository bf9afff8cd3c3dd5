import type { Clock, Logger, TimerId } from "@oar/core";
import { errorMessage } from "../shared/error-message";
import { CLOSE_GRACE_MS, settleWithin } from "../shared/settle-within";

/** After a failed pass (the database away, DESIGN §9), when to try again. */
const RETRY_MS = 1_000;

/**
 * Runs due work kept in rows (schedules, questions to poll): one pass at a time, then asleep
 * until the next due time the pass returns (or `backstopMs`, for work other processes create). No
 * timer lives only in memory: every pass reads its due times again from the rows.
 */
export interface DueRunner {
  /** Something changed: look at the due times again. */
  poke(): void;
  start(): void;
  /** Resolves when no pass runs or is asked for (tests: after time moved). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export function createDueRunner(deps: {
  readonly clock: Clock;
  readonly logger: Logger;
  /** What the runner does, in the logs. */
  readonly name: string;
  /** Does what is due now; returns the next due time, or null when nothing waits. */
  readonly pass: () => Promise<number | null>;
  /** Look at least this often (other processes' work on a shared database); null: only when due. */
  readonly backstopMs: number | null;
}): DueRunner {
  const { clock } = deps;
  let started = false;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: TimerId | null = null;

  const arm = (ms: number | null) => {
    if (timer !== null) {
      clock.clearTimeout(timer);
      timer = null;
    }
    if (ms !== null && !closed) {
      timer = clock.setTimeout(
        () => {
          timer = null;
          poke();
        },
        Math.max(0, ms),
      );
    }
  };

  const loop = async () => {
    do {
      again = false;
      if (closed) {
        return;
      }
      try {
        const next = await deps.pass();
        const now = clock.now();
        const at = [next, deps.backstopMs === null ? null : now + deps.backstopMs].filter(
          (t): t is number => t !== null,
        );
        arm(at.length === 0 ? null : Math.min(...at) - now);
      } catch (error) {
        deps.logger.warn(`The ${deps.name} failed a pass; it tries again.`, { error: errorMessage(error) });
        arm(RETRY_MS);
      }
    } while (again && !closed);
  };

  function poke() {
    if (closed || !started) {
      return;
    }
    if (running !== null) {
      again = true;
      return;
    }
    running = loop().finally(() => {
      running = null;
    });
  }

  return {
    poke,
    start() {
      started = true;
      poke();
    },
    async settled() {
      while (running !== null) {
        await running;
      }
    },
    async close() {
      closed = true;
      arm(null);
      await settleWithin(clock, running, CLOSE_GRACE_MS);
    },
  };
}
