import type { Clock, IdGenerator, Logger } from "@oar/core";
import type { EngineStores } from "../engine";
import { createDueRunner, type DueRunner } from "../runtime/due-runner";
import { fireDueSchedules } from "./fire-schedules";

/** With other processes on the stores, how often to look for due schedules besides the timer (DESIGN §9). */
export const SCHEDULE_POLL_MS = 1_000;

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
 * Fires the schedules (§33) from their rows: it sleeps until the earliest due time (read again
 * after each pass, and at start, so an overdue schedule fires once on start). Each pass claims
 * its rows in transactions of its own; with shared stores it also looks every second for what
 * another process created.
 */
export function createScheduleRunner(deps: ScheduleRunnerDeps): DueRunner {
  const { stores, clock } = deps;
  return createDueRunner({
    clock,
    logger: deps.logger,
    name: "schedule runner",
    backstopMs: deps.sharedStore ? SCHEDULE_POLL_MS : null,
    async pass() {
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
        if (!done.more) {
          break;
        }
      }
      return stores.schedules.nextDueAt();
    },
  });
}
