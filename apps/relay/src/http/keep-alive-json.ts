import type { ReadableStreamDefaultController, UnderlyingSource } from "node:stream/web";
import { type Clock, isRelayError, type Logger, type TimerId, wireExtraOf } from "@oar/core";
import { type ErrorCode, errorEnvelope } from "@oar/schema";
import type { Context } from "hono";
import { internalEnvelope } from "./errors";
import { onClientGone } from "./node-request";

/** DESIGN §4: a space at least every 25 s keeps a long wait alive through idle timeouts. */
export const DEFAULT_KEEP_ALIVE_MS = 25_000;
/**
 * A call answered within this goes out as a plain JSON body, without a stream: most calls
 * (reads, lists, sends that do not wait) answer in milliseconds, and a streamed body cost a third
 * of a read_session's time on the relay (issue 29). A longer call starts its stream then.
 */
export const PLAIN_BODY_WITHIN_MS = 250;

const encoder = new TextEncoder();
// JSON whitespace: any parser reads the body unchanged. Never written to, so one copy serves all.
const SPACE = encoder.encode(" ");

interface FailureLog {
  readonly logger: Logger;
  readonly requestId: string;
  readonly log: Readonly<Record<string, unknown>>;
}

/**
 * One call's response body, as the source of its ReadableStream: a space every `intervalMs`
 * while the result is pending, then the JSON. A relay holds thousands of waits at once, so a
 * held call is this one object with its methods on the prototype (and three bound functions),
 * not the dozen closures a call used to keep alive (issue 8, item 9: bytes per held wait).
 * It is also the listener of the request's abort signal (`handleEvent`).
 */
class KeepAliveBody implements UnderlyingSource<Uint8Array> {
  /** Aborted when the client goes away: the work behind the result may stop. */
  readonly client = new AbortController();
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private timer: TimerId | undefined;
  private open = true;
  /** The first space comes an interval after the call began, whatever it waited before its stream. */
  private firstSpaceMs: number | undefined;
  private readonly tick = this.writeSpace.bind(this);
  private readonly deliver = this.write.bind(this);
  private readonly fail = this.writeFailure.bind(this);

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly failure: FailureLog,
  ) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
    this.timer = this.clock.setTimeout(this.tick, this.firstSpaceMs ?? this.intervalMs);
  }

  /**
   * The call's JSON when `result` settles within `graceMs` (a failure logged and answered with
   * the INTERNAL envelope), else undefined: the call goes on behind a stream.
   */
  settledWithin(result: Promise<unknown>, graceMs: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => {
        this.firstSpaceMs = Math.max(0, this.intervalMs - graceMs);
        resolve(undefined);
      }, graceMs);
      result.then(
        (body) => {
          this.clock.clearTimeout(timer);
          resolve(JSON.stringify(body));
        },
        (cause) => {
          this.clock.clearTimeout(timer);
          resolve(JSON.stringify(this.failed(cause)));
        },
      );
    });
  }

  /** Called once the stream exists. */
  follow(result: Promise<unknown>): void {
    result.then(this.deliver, this.fail);
  }

  cancel(): void {
    this.stop();
    this.client.abort();
  }

  handleEvent(): void {
    this.client.abort();
  }

  private writeSpace(): void {
    if (this.open) {
      this.controller?.enqueue(SPACE);
      this.timer = this.clock.setTimeout(this.tick, this.intervalMs);
    }
  }

  private write(body: unknown): void {
    if (this.open) {
      this.stop();
      this.controller?.enqueue(encoder.encode(JSON.stringify(body)));
      this.controller?.close();
    }
  }

  private writeFailure(cause: unknown): void {
    this.write(this.failed(cause));
  }

  private failed(cause: unknown): unknown {
    const { logger, requestId, log } = this.failure;
    // A fault with its own code (the database away: REMOTE_RELAY_UNAVAILABLE) is answered with
    // it, as any route answers it; only what has none is a bug.
    if (isRelayError(cause) && !cause.isLocal()) {
      logger.warn("relay_tool call refused", { requestId, ...log, code: cause.code, error: cause.message });
      return errorEnvelope(cause.code as ErrorCode, cause.message, wireExtraOf(cause));
    }
    logger.error("relay_tool call failed", { requestId, ...log, error: cause });
    return internalEnvelope(requestId);
  }

  private stop(): void {
    this.open = false;
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}

/**
 * A call's result as the HTTP 200 response of /v1/tool and /v1/peer/tool: `run` gets a signal
 * aborted when the client goes away; a result within PLAIN_BODY_WITHIN_MS goes out as a plain
 * body, a longer call's body starts then and stays alive while it waits, and a failure is logged
 * and answered with the INTERNAL envelope.
 */
export async function keepAliveResponse(
  c: Context,
  options: {
    readonly run: (signal: AbortSignal) => Promise<unknown>;
    readonly clock: Clock;
    readonly intervalMs: number;
    readonly logger: Logger;
    /** What the log line says of the call besides its request id. */
    readonly log: Readonly<Record<string, unknown>>;
  },
): Promise<Response> {
  const body = new KeepAliveBody(options.clock, options.intervalMs, {
    logger: options.logger,
    requestId: c.get("requestId"),
    log: options.log,
  });
  onClientGone(c, body);
  const result = options.run(body.client.signal);
  const json = await body.settledWithin(result, Math.min(options.intervalMs, PLAIN_BODY_WITHIN_MS));
  const headers = { "Content-Type": "application/json; charset=utf-8" };
  if (json !== undefined) {
    return c.body(json, 200, headers);
  }
  const stream = new ReadableStream<Uint8Array>(body);
  body.follow(result);
  return c.body(stream, 200, headers);
}
