import { systemClock } from "@oar/core";

/** setTimeout's longest delay; a longer deadline would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Why an exchange stopped early: its own deadline, or the caller's signal. */
export type StopReason = "deadline" | "caller";

/**
 * One bounded exchange with a peer: a signal that aborts when the deadline elapses or the
 * caller's signal aborts, whichever comes first, and a promise that rejects at that moment so
 * every await of the exchange (the fetch, each body read) can race it. The deadline bounds the
 * whole exchange, the body included: ky's own `timeout` stops at the response headers.
 */
export interface Exchange {
  readonly signal: AbortSignal;
  /** Rejects when the exchange is stopped; never resolves. */
  readonly stopped: Promise<never>;
  /** Why the exchange was stopped, or undefined while it runs. */
  stopReason(): StopReason | undefined;
  /** Clears the timer and the listener on the caller's signal. */
  end(): void;
}

export function startExchange(timeoutMs: number, callerSignal: AbortSignal | undefined): Exchange {
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs)) {
    throw new RangeError("A peer call's timeout must be a number of milliseconds.");
  }
  const controller = new AbortController();
  let reason: StopReason | undefined;
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  // Every await races `stopped`; one that has already settled must not leave it unhandled.
  stopped.catch(() => undefined);
  const stop = (why: StopReason) => {
    if (reason === undefined) {
      reason = why;
      controller.abort(why === "deadline" ? new Error("the deadline elapsed") : callerSignal?.reason);
    }
  };
  const onCallerAbort = () => stop("caller");
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = systemClock.setTimeout(
    () => stop("deadline"),
    Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS),
  );
  if (callerSignal?.aborted) {
    stop("caller");
  } else if (timeoutMs <= 0) {
    stop("deadline");
  }
  return {
    signal: controller.signal,
    stopped,
    stopReason: () => reason,
    end() {
      systemClock.clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

const LEADING_JSON_WHITESPACE = /^[ \t\n\r]+/;

/**
 * The most bytes of one response body the client reads. A paired relay that streams without end
 * (or just huge) would otherwise grow this process's memory until it dies. Ordinary answers are
 * far smaller; one that is not (read_session with `last` 200 of messages near LIMITS.textMaxChars)
 * fails with a message saying why, and the agent can ask for less.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** How much of a body to read, and the failure to throw past it. */
export interface BodyLimit {
  readonly maxBytes: number;
  readonly exceeded: () => Error;
}

/**
 * The whole body as text, read within the exchange. The keep-alive spaces a peer writes before
 * its JSON while it waits (DESIGN §4) are dropped as they arrive, so a long wait costs no memory;
 * they count toward `limit` like every other byte. Past `limit` (or a Content-Length over it) the
 * body is cancelled, which closes the connection, and `limit.exceeded()` is thrown.
 */
export async function readBody(response: Response, exchange: Exchange, limit: BodyLimit): Promise<string> {
  const body = response.body;
  if (!body) {
    return "";
  }
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit.maxBytes) {
    discardBody(response);
    throw limit.exceeded();
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let started = false;
  let received = 0;
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), exchange.stopped]);
      if (chunk.done) {
        break;
      }
      received += chunk.value.byteLength;
      if (received > limit.maxBytes) {
        throw limit.exceeded();
      }
      let text = decoder.decode(chunk.value, { stream: true });
      if (!started) {
        text = text.replace(LEADING_JSON_WHITESPACE, "");
        started = text.length > 0;
      }
      if (text) {
        parts.push(text);
      }
    }
    parts.push(decoder.decode());
    return parts.join("");
  } catch (error) {
    // Stopped mid-body, over the limit, or the body broke: stop reading it; a pending read settles by itself.
    reader.cancel().catch(() => undefined);
    throw error;
  }
}

/** Drops a body the client will not read, so the connection is freed. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}
