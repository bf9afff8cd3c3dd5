import type { Clock, TimerId } from "@oar/core";

/** DESIGN §4: a space at least every 25 s keeps a long wait alive through idle timeouts. */
export const DEFAULT_KEEP_ALIVE_MS = 25_000;

const encoder = new TextEncoder();

/**
 * A JSON response body that starts at once: while `result` is pending a single space (JSON
 * whitespace, so any parser reads the body unchanged) goes out every `intervalMs`, then the JSON.
 * A result that settles at once goes out as a plain body.
 */
export function keepAliveJson(options: {
  readonly result: Promise<unknown>;
  readonly clock: Clock;
  readonly intervalMs: number;
  /** The client went away: the work behind `result` may stop. */
  readonly onCancel: () => void;
  /** The body written when `result` rejects. */
  readonly onFailure: (cause: unknown) => unknown;
}): ReadableStream<Uint8Array> {
  let timer: TimerId | undefined;
  let open = true;
  const stop = () => {
    open = false;
    if (timer !== undefined) {
      options.clock.clearTimeout(timer);
      timer = undefined;
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const tick = () => {
        if (!open) {
          return;
        }
        controller.enqueue(encoder.encode(" "));
        timer = options.clock.setTimeout(tick, options.intervalMs);
      };
      timer = options.clock.setTimeout(tick, options.intervalMs);
      options.result
        .catch((cause: unknown) => options.onFailure(cause))
        .then((body) => {
          if (open) {
            stop();
            controller.enqueue(encoder.encode(JSON.stringify(body)));
            controller.close();
          }
        });
    },
    cancel() {
      stop();
      options.onCancel();
    },
  });
}
