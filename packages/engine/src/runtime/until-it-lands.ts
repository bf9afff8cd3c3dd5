import { isOutage, RETRY_FIRST_MS, RETRY_MAX_MS } from "../shared/outage";
import type { RuntimeContext } from "./runtime-context";

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
