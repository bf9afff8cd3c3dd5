import type { ReadableStreamDefaultController, UnderlyingSource } from "node:stream/web";
import { type Clock, isRelayError, type Logger, type TimerId } from "@oar/core";
import type { OutboxRecord, OwnerApi } from "@oar/engine";

/** DESIGN §4: a comment at least every 25 s keeps the stream alive through idle timeouts. */
export const EVENT_KEEP_ALIVE_MS = 25_000;
/** The read a missed hint waits for at most (DESIGN §9: LISTEN/NOTIFY is a hint behind polling). */
export const EVENT_POLL_MS = 1_000;
/** Rows per outbox read. */
export const EVENT_PAGE = 500;
/**
 * Bytes queued for a client before the stream stops reading the outbox for it; the client's
 * cursor waits, and reading goes on once it has taken them. One page may pass it.
 */
const QUEUED_BYTES = 64 * 1024;

/** What a stream reads: the owner API's outbox verbs. */
export type OutboxSource = Pick<OwnerApi, "listEvents" | "onEvents">;

const encoder = new TextEncoder();
// Never written to, so one copy serves every stream.
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/** One outbox row as an SSE event; `JSON.stringify` escapes line breaks, so `data` is one line. */
export function eventFrame(record: OutboxRecord): string {
  return `id: ${record.seq}\nevent: ${record.kind}\ndata: ${JSON.stringify(record.event)}\n\n`;
}

/** A stream the relay ends when it closes. */
interface Closable {
  close(): Promise<void>;
}

/**
 * The long-lived responses of one relay: `close` ends them all, so the relay's close leaves no
 * timer and no open response behind (the process can exit). Once closed, it takes no new one.
 */
export class OpenStreams {
  private readonly streams = new Set<Closable>();
  private closed = false;

  /** False once the relay is closing: the caller answers without a stream. */
  add(stream: Closable): boolean {
    if (this.closed) {
      return false;
    }
    this.streams.add(stream);
    return true;
  }

  delete(stream: Closable): void {
    this.streams.delete(stream);
  }

  get size(): number {
    return this.streams.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Ends every stream; resolves once the outbox reads they had in flight are done. */
  async close(): Promise<void> {
    this.closed = true;
    const streams = [...this.streams];
    this.streams.clear();
    await Promise.all(streams.map((stream) => stream.close()));
  }
}

export interface OwnerEventStreamOptions {
  readonly source: OutboxSource;
  /** The seq the client has seen: rows above it are sent. */
  readonly after: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly requestId: string;
  readonly streams: OpenStreams;
  /** Keep-alive period (default 25 s). */
  readonly keepAliveMs?: number;
  /** Backstop read period (default 1 s). */
  readonly pollMs?: number;
}

/**
 * The owner's event stream (`GET /v1/owner/events`) as the source of its ReadableStream. It keeps
 * a cursor (the last seq written) and reads the outbox after it, page by page until a short page,
 * on every hint of the engine and every `pollMs` in case a hint is missed; one read at a time,
 * so no row is written twice or skipped (the outbox shows rows in seq order, never with a gap).
 * While the client's queue is full it stops reading, and `pull` resumes it. A failed read (the
 * database away) is logged once and retried by the next poll: the stream stays open and the
 * cursor stays where it was. It is also the listener of the request's abort signal.
 */
export class OwnerEventStream implements UnderlyingSource<Uint8Array>, Closable {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private cursor: number;
  private open = true;
  /** The read in flight, if any. */
  private reading: Promise<void> | undefined;
  /** A hint or a poll came while a read was in flight: read once more after it. */
  private again = false;
  /** The client's queue is full: reading waits for `pull`. */
  private paused = false;
  /** Reads have been failing since this error was logged. */
  private failing = false;
  private pollTimer: TimerId | undefined;
  private keepAliveTimer: TimerId | undefined;
  private stopHints: (() => void) | undefined;
  private readonly source: OutboxSource;
  private readonly clock: Clock;
  private readonly keepAliveMs: number;
  private readonly pollMs: number;
  private readonly hint = this.read.bind(this);
  private readonly poll = this.onPoll.bind(this);
  private readonly keepAlive = this.onKeepAlive.bind(this);

  constructor(private readonly options: OwnerEventStreamOptions) {
    this.source = options.source;
    this.clock = options.clock;
    this.cursor = options.after;
    this.keepAliveMs = options.keepAliveMs ?? EVENT_KEEP_ALIVE_MS;
    this.pollMs = options.pollMs ?? EVENT_POLL_MS;
  }

  /** The last seq written to the client. */
  get position(): number {
    return this.cursor;
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
    if (!this.options.streams.add(this)) {
      this.open = false;
      controller.close();
      return;
    }
    this.stopHints = this.source.onEvents(this.hint);
    this.pollTimer = this.clock.setTimeout(this.poll, this.pollMs);
    this.keepAliveTimer = this.clock.setTimeout(this.keepAlive, this.keepAliveMs);
    // The backlog after the client's position goes out at once.
    this.read();
  }

  pull(): void {
    if (this.paused) {
      this.paused = false;
      this.read();
    }
  }

  /** The client went away (the response's reader was cancelled). */
  cancel(): void {
    this.stop();
  }

  /** The request's abort signal: the client went away. */
  handleEvent(): void {
    this.stop();
  }

  /** The relay is closing: the response ends cleanly once the read in flight is done. */
  async close(): Promise<void> {
    const wasOpen = this.open;
    this.stop();
    if (wasOpen) {
      try {
        this.controller?.close();
      } catch {
        // The client cancelled in the meantime: nothing left to end.
      }
    }
    await this.reading;
  }

  private read(): void {
    if (!this.open || this.paused) {
      return;
    }
    if (this.reading !== undefined) {
      this.again = true;
      return;
    }
    this.again = false;
    this.reading = this.readPage();
  }

  private async readPage(): Promise<void> {
    let rows: OutboxRecord[];
    try {
      rows = await this.source.listEvents({ after: this.cursor, limit: EVENT_PAGE });
    } catch (cause) {
      this.reading = undefined;
      this.failed(cause);
      return;
    }
    // From here to the next read, nothing awaits: a hint that comes meanwhile finds no read in flight.
    this.reading = undefined;
    if (!this.open) {
      return;
    }
    this.recovered();
    const last = rows.at(-1);
    if (last !== undefined) {
      this.controller?.enqueue(encoder.encode(rows.map(eventFrame).join("")));
      this.cursor = last.seq;
    }
    if ((this.controller?.desiredSize ?? 0) <= 0) {
      this.paused = true;
      return;
    }
    if (rows.length === EVENT_PAGE || this.again) {
      this.read();
    }
  }

  private failed(cause: unknown): void {
    if (this.open && !this.failing) {
      this.failing = true;
      this.options.logger.warn("owner event stream: reading the outbox failed; retrying every poll", {
        requestId: this.options.requestId,
        after: this.cursor,
        // An outage is said by its message: its stack tells nothing, and formatting it costs (with
        // source maps on, each frame's map parsed and kept for good).
        error: isRelayError(cause) && cause.code === "REMOTE_RELAY_UNAVAILABLE" ? cause.message : cause,
      });
    }
  }

  private recovered(): void {
    if (this.failing) {
      this.failing = false;
      this.options.logger.info("owner event stream: reading the outbox again", {
        requestId: this.options.requestId,
        after: this.cursor,
      });
    }
  }

  private onPoll(): void {
    if (this.open) {
      this.pollTimer = this.clock.setTimeout(this.poll, this.pollMs);
      this.read();
    }
  }

  private onKeepAlive(): void {
    if (this.open) {
      this.keepAliveTimer = this.clock.setTimeout(this.keepAlive, this.keepAliveMs);
      // A client whose queue is full has bytes on the way already.
      if ((this.controller?.desiredSize ?? 0) > 0) {
        this.controller?.enqueue(KEEP_ALIVE);
      }
    }
  }

  private stop(): void {
    if (!this.open) {
      return;
    }
    this.open = false;
    this.options.streams.delete(this);
    this.stopHints?.();
    this.stopHints = undefined;
    for (const timer of [this.pollTimer, this.keepAliveTimer]) {
      if (timer !== undefined) {
        this.clock.clearTimeout(timer);
      }
    }
    this.pollTimer = undefined;
    this.keepAliveTimer = undefined;
  }
}

/**
 * The ReadableStream of one owner event stream, ended when the request's signal aborts, the
 * client cancels, or `streams` closes.
 */
export function ownerEventStream(
  options: OwnerEventStreamOptions & { readonly signal?: AbortSignal },
): ReadableStream<Uint8Array> {
  const body = new OwnerEventStream(options);
  const stream = new ReadableStream<Uint8Array>(body, {
    highWaterMark: QUEUED_BYTES,
    size: (chunk) => chunk.byteLength,
  });
  options.signal?.addEventListener("abort", body, { once: true });
  return stream;
}
