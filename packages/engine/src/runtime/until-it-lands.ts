import { type Clock, isRelayError } from "@oar/core";
import type { RuntimeContext } from "./runtime-context";

/** The first wait after an outage, and the longest one (DESIGN §4: the relay reconnects by itself). */
export const RETRY_FIRST_MS = 200;
export const RETRY_MAX_MS = 5_000;
/** While writes wait out an outage, how often the database is asked whether it answers again. */
export const OUTAGE_PROBE_MS = 250;

/** The failure of a store whose database does not answer (the stores' REMOTE_RELAY_UNAVAILABLE). */
export function isOutage(error: unknown): boolean {
  return isRelayError(error) && error.code === "REMOTE_RELAY_UNAVAILABLE";
}

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

/**
 * Runs `attempt` until it lands: while the database does not answer, it waits (longer each time,
 * on the runtime's clock, or until the database answers again) and tries again. Any other failure
 * rejects. `undefined` when the runtime closed before it landed: the next start recovers what it
 * left.
 */
export async function untilItLands<T>(
  ctx: RuntimeContext,
  what: string,
  attempt: () => Promise<T>,
): Promise<T | undefined> {
  let delay = RETRY_FIRST_MS;
  for (let tries = 1; ; tries++) {
    if (ctx.isClosed()) {
      return undefined;
    }
    try {
      const landed = await attempt();
      if (tries > 1) {
        // The database is back: the other writes waiting on it need not wait for their next step.
        ctx.outages.answered();
      }
      return landed;
    } catch (error) {
      if (!isOutage(error)) {
        throw error;
      }
      if (tries === 1) {
        ctx.logger.warn(`The database does not answer; ${what} is retried until it does.`, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    await ctx.outages.pause(delay);
    delay = Math.min(delay * 2, RETRY_MAX_MS);
  }
}
