import { createDueRunner, type DueRunner } from "../runtime/due-runner";
import { type DispatcherDeps, SHARED_POLL_MS } from "../watching/dispatcher";
import { fireDueSchedules } from "./fire-schedules";

/** What the runner works with: what the event dispatcher does (`kick` starts a firing's turn). */
export type ScheduleRunnerDeps = DispatcherDeps;

/**
 * Fires the schedules (§33) from their rows: it sleeps until the earliest due time (read again
 * after each pass, and at start, so an overdue schedule fires once on start). Each pass claims
 * its rows in transactions of its own; with shared stores it also looks every second for what
 * another process created.
 */
/** How often a runner told of other processes' changes still looks (a hint lost on a reconnect). */
export const ANNOUNCED_BACKSTOP_MS = 15_000;

export function createScheduleRunner(deps: ScheduleRunnerDeps): DueRunner {
  const { stores, clock } = deps;
  return createDueRunner({
    clock,
    logger: deps.logger,
    name: "schedule runner",
    // With other processes on the stores, their schedules are looked for every second (DESIGN §9);
    // where they announce their changes, that hint wakes this runner and the look is rarer.
    backstopMs: !deps.sharedStore
      ? null
      : stores.schedules.onForeignChanges === undefined
        ? SHARED_POLL_MS
        : ANNOUNCED_BACKSTOP_MS,
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
        const firedAt = clock.now();
        for (const slot of done.fired) {
          deps.observer.scheduleFired(firedAt - slot);
        }
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
