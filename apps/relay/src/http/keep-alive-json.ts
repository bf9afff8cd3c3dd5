import type { Clock, Logger, TimerId } from "@oar/core";
import type { Context } from "hono";
import { internalEnvelope } from "./errors";

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

/**
 * A call's result as the HTTP 200 response of /v1/tool and /v1/peer/tool: `run` gets a signal
 * aborted when the client goes away, the body starts at once and stays alive while it waits, and
 * a failure is logged and answered with the INTERNAL envelope.
 */
export function keepAliveResponse(
  c: Context,
  options: {
    readonly run: (signal: AbortSignal) => Promise<unknown>;
    readonly clock: Clock;
    readonly intervalMs: number;
    readonly logger: Logger;
    /** What the log line says of the call besides its request id. */
    readonly log: Readonly<Record<string, unknown>>;
  },
): Response {
  const requestId = c.get("requestId");
  const client = new AbortController();
  c.req.raw.signal.addEventListener("abort", () => client.abort(), { once: true });
  const body = keepAliveJson({
    result: options.run(client.signal),
    clock: options.clock,
    intervalMs: options.intervalMs,
    onCancel: () => client.abort(),
    onFailure: (cause) => {
      options.logger.error("relay_tool call failed", { requestId, ...options.log, error: cause });
      return internalEnvelope(requestId);
    },
  });
  return c.body(body, 200, { "Content-Type": "application/json; charset=utf-8" });
}
