import type { Clock, TimerId } from "@oar/core";

/** How long the model's API may take, on the relay's clock, while the turn waits on it. */
export interface ModelTimer {
  /** A relay_tool call starts: its time is the relay's, not the model's. */
  pause(): void;
  /** The call ended: the model has its whole time again to answer. */
  resume(): void;
  stop(): void;
}

/**
 * Calls `onTimeout` once the model has kept the turn waiting for `ms` at a stretch: from the turn's
 * start, or from the end of the last relay_tool call (a `wait` on another session may rightly take
 * longer than any answer should). Several calls at once pause it until the last one ends.
 */
export function startModelTimer(clock: Clock, ms: number, onTimeout: () => void): ModelTimer {
  let timer: TimerId | undefined;
  let toolsRunning = 0;
  let stopped = false;
  const clear = () => {
    if (timer !== undefined) {
      clock.clearTimeout(timer);
      timer = undefined;
    }
  };
  const arm = () => {
    clear();
    if (!stopped) {
      timer = clock.setTimeout(() => {
        timer = undefined;
        onTimeout();
      }, ms);
    }
  };
  arm();
  return {
    pause() {
      toolsRunning += 1;
      clear();
    },
    resume() {
      toolsRunning = Math.max(0, toolsRunning - 1);
      if (toolsRunning === 0) {
        arm();
      }
    },
    stop() {
      stopped = true;
      clear();
    },
  };
}
