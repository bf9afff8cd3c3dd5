import type { Clock } from "@oar/core";

/** While writes wait out an outage, how often the database is asked whether it answers again. */
export const OUTAGE_PROBE_MS = 250;

/**
 * The waits of the writes that must land after an outage. Each waits its own step of the backoff,
 * but all of them end as soon as the database answers again: while any waits, one cheap read
 * (`probe`) every OUTAGE_PROBE_MS asks, and the first answer after a probe found it away, or any
 * write landing, ends them. So a turn that ended during an outage is written about as soon as the
 * database is back, not up to a backoff step later. A probe answered before any failed means the
 * database is there and what fails is something else: the writes keep their steps.
 */
export interface OutageWaits {
  /** Resolves after `ms` on the clock, or sooner: once the database answers again. */
  pause(ms: number): Promise<void>;
  /** A write landed: the database answers again, every pause ends now. */
  answered(): void;
  /** Every pause ends now (the runtime closes). */
  wake(): void;
}

export function createOutageWaits(input: {
  readonly clock: Clock;
  readonly isClosed: () => boolean;
  /** A read the database answers when it is there; it rejects while it is away. */
  readonly probe: () => Promise<unknown>;
}): OutageWaits {
  const { clock } = input;
  const waiting = new Set<() => void>();
  let timer: ReturnType<Clock["setTimeout"]> | undefined;
  let probing = false;
  /** A probe found the database away since it last answered. */
  let away = false;

  const wake = () => {
    for (const end of [...waiting]) {
      end();
    }
  };
  const answered = () => {
    away = false;
    wake();
  };

  const look = async () => {
    timer = undefined;
    if (waiting.size === 0 || input.isClosed()) {
      return;
    }
    probing = true;
    const answers = await input.probe().then(
      () => true,
      () => false,
    );
    probing = false;
    if (!answers) {
      away = true;
      schedule();
    } else if (away) {
      answered();
    }
  };

  // One probe at a time: on a frozen link a probe waits for its deadline, and the next follows it.
  const schedule = () => {
    if (timer === undefined && !probing && waiting.size > 0 && !input.isClosed()) {
      timer = clock.setTimeout(() => void look(), OUTAGE_PROBE_MS);
    }
  };

  return {
    pause(ms) {
      return new Promise<void>((resolve) => {
        const end = () => {
          if (waiting.delete(end)) {
            clock.clearTimeout(step);
            if (waiting.size === 0 && timer !== undefined) {
              clock.clearTimeout(timer);
              timer = undefined;
            }
            resolve();
          }
        };
        const step = clock.setTimeout(end, ms);
        waiting.add(end);
        schedule();
      });
    },
    answered,
    wake,
  };
}
