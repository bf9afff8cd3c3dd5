import type { Clock, IdGenerator, Logger, TimerId } from "@oar/core";
import type { EngineStores } from "../engine";
import { errorMessage } from "../runtime/runtime-context";
import { settleWithin } from "../watching/settle-within";
import { fireDueSchedules } from "./fire-schedules";

/** With other processes on the stores, how often to look for due schedules besides the timer (DESIGN §9). */
export const SCHEDULE_POLL_MS = 1_000;
/** After a failed pass (the database away), when to try again. */
const RETRY_MS = 1_000;
const CLOSE_GRACE_MS = 2_000;

export interface ScheduleRunnerDeps {
  readonly stores: EngineStores;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly sharedStore: boolean;
  readonly drivenFromOutside: (provider: string) => boolean;
  /** Starts a session's queue once a firing's turn is committed. */
  readonly kick: (sessionId: string) => void;
}

/**
 * Fires the schedules (§33). No timer lives only in memory: every due time is a row, and the
 * runner sleeps until the earliest (recomputed from the rows after each pass, and at start, so an
 * overdue schedule fires once on start). Each pass claims its rows in a transaction of its own;
 * with shared stores it also looks every second for what another process created.
 */
export interface ScheduleRunner {
  /** Something changed (a schedule created or released): look at the due times again. */
  poke(): void;
  start(): void;
  /** Resolves when no pass runs or is asked for (tests: after time moved). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export function createScheduleRunner(deps: ScheduleRunnerDeps): ScheduleRunner {
  const { stores, clock } = deps;
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

  const pass = async () => {
    for (;;) {
      const done = await stores.transaction((tx) =>
        fireDueSchedules({
          stores: tx,
          ids: deps.ids,
          now: clock.now(),
          drivenFromOutside: deps.drivenFromOutside,
        }),
      );
      for (const sessionId of done.kick) {
        deps.kick(sessionId);
      }
      if (!done.more || closed) {
        break;
      }
    }
    const next = await stores.schedules.nextDueAt();
    const now = clock.now();
    const poll = deps.sharedStore ? now + SCHEDULE_POLL_MS : null;
    const at = [next, poll].filter((t): t is number => t !== null);
    arm(at.length === 0 ? null : Math.min(...at) - now);
  };

  const loop = async () => {
    do {
      again = false;
      if (closed) {
        return;
      }
      try {
        await pass();
      } catch (error) {
        deps.logger.warn("The schedule runner's pass failed; it tries again.", {
          error: errorMessage(error),
        });
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
