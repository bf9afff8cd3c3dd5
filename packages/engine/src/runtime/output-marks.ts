import { errorMessage } from "../shared/error-message";
import type { RuntimeContext } from "./runtime-context";

/**
 * How often a running turn's output is written down at most. The stall check (GAP-13) reads it
 * from the store, so any relay process sharing it can tell; minutes are its unit, so a mark every
 * 30 s keeps it exact enough without a write per streamed piece.
 */
export const OUTPUT_MARK_MS = 30_000;

/** Notes a running turn's output and activity: `saw()` on each piece, written at most every 30 s. */
export function outputMarker(ctx: RuntimeContext, turnId: string): { saw(): void } {
  let marked = ctx.clock.now();
  return {
    saw() {
      const now = ctx.clock.now();
      if (now - marked < OUTPUT_MARK_MS) {
        return;
      }
      marked = now;
      // A mark that fails (the database away) only makes a stall look older; the next one retries.
      ctx.stores.sessions.markTurnOutput({ id: turnId, at: now }).catch((error: unknown) => {
        ctx.logger.debug("A turn's output mark was not written.", {
          turn: turnId,
          error: errorMessage(error),
        });
      });
    },
  };
}
