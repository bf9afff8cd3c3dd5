import type { ReadableStreamReadResult } from "node:stream/web";
import { type LogFields, type Logger, RelayError } from "@oar/core";
import { FakeClock } from "@oar/core/testing";
import type { OutboxRecord } from "@oar/engine";
import { describe, expect, it } from "vitest";
import {
  EVENT_KEEP_ALIVE_MS,
  EVENT_PAGE,
  EVENT_POLL_MS,
  eventFrame,
  OpenStreams,
  type OutboxSource,
  ownerEventStream,
} from "../src/http/owner-event-stream";

const decoder = new TextDecoder();

function recordingLogger(): Logger & {
  readonly lines: string[];
  readonly fields: (LogFields | undefined)[];
} {
  const lines: string[] = [];
  const fields: (LogFields | undefined)[] = [];
  const log = (level: string) => (message: string, given?: LogFields) => {
    lines.push(`${level}: ${message}`);
    fields.push(given);
  };
  return { lines, fields, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** An outbox in memory: `append` adds rows and calls the hint listeners, as the engine does. */
class FakeOutbox implements OutboxSource {
  readonly rows: OutboxRecord[] = [];
  readonly listeners = new Set<() => void>();
  reads = 0;
  inFlight = 0;
  mostInFlight = 0;
  /** While set, every read fails with it (the database away). */
  failure: Error | undefined;
  /** While set, reads wait for `release()`. */
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  textLength = 10;

  append(count: number, options: { readonly hint?: boolean } = {}): void {
    for (let i = 0; i < count; i++) {
      const seq = this.rows.length + 1;
      this.rows.push({
        seq,
        id: `evt_${seq}`,
        kind: "turn_end",
        sessionId: "ses_1",
        subscriptionId: null,
        event: {
          kind: "turn_end",
          id: `evt_${seq}`,
          at: "2026-01-01T00:00:00.000Z",
          session: "ses_1",
          title: "Build",
          status: "done",
          text: "x".repeat(this.textLength),
        },
        at: 0,
      });
    }
    if (options.hint ?? true) {
      for (const listener of this.listeners) {
        listener();
      }
    }
  }

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = undefined;
    this.open?.();
  }

  async listEvents(options: { readonly after: number; readonly limit: number }): Promise<OutboxRecord[]> {
    this.reads++;
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await this.gate;
      if (this.failure) {
        throw this.failure;
      }
      return this.rows.filter((row) => row.seq > options.after).slice(0, options.limit);
    } finally {
      this.inFlight--;
    }
  }

  onEvents(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function open(outbox: FakeOutbox, options: { readonly after?: number; readonly clock?: FakeClock } = {}) {
  const clock = options.clock ?? new FakeClock();
  const logger = recordingLogger();
  const streams = new OpenStreams();
  const stream = ownerEventStream({
    source: outbox,
    after: options.after ?? 0,
    clock,
    logger,
    requestId: "req_events",
    streams,
  });
  const reader = stream.getReader();
  let text = "";
  let ended = false;
  // A read that found nothing yet stays pending, and takes the next chunk.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  // Reads everything written so far (the queue), without waiting for more.
  const drain = async (): Promise<string> => {
    await settle();
    for (;;) {
      pending ??= reader.read();
      const next = await Promise.race([pending, settle().then(() => undefined)]);
      if (next === undefined) {
        break;
      }
      pending = undefined;
      if (next.done) {
        ended = true;
        break;
      }
      text += decoder.decode(next.value);
    }
    const taken = text;
    text = "";
    return taken;
  };
  return { clock, logger, streams, reader, drain, ended: () => ended };
}

const idsIn = (text: string): number[] => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

describe("the owner event stream's body (DESIGN §4)", () => {
  it("writes each row as `id: seq`, `event: kind`, `data: JSON` on one line", () => {
    const outbox = new FakeOutbox();
    outbox.append(1, { hint: false });
    const row = outbox.rows[0] as OutboxRecord;
    expect(eventFrame({ ...row, event: { ...row.event, title: "two\nlines" } })).toBe(
      `id: 1\nevent: turn_end\ndata: ${JSON.stringify({ ...row.event, title: "two\nlines" })}\n\n`,
    );
    expect(eventFrame(row).split("\n")).toHaveLength(5);
  });

  it("sends the backlog after the client's position, then each new row once, on a hint", async () => {
    const outbox = new FakeOutbox();
    outbox.append(5, { hint: false });
    const client = open(outbox, { after: 2 });
    expect(idsIn(await client.drain())).toEqual([3, 4, 5]);
    outbox.append(2);
    expect(idsIn(await client.drain())).toEqual([6, 7]);
    outbox.append(1);
    outbox.append(1);
    expect(idsIn(await client.drain())).toEqual([8, 9]);
  });

  it("reads pages of 500 until a short one", async () => {
    const outbox = new FakeOutbox();
    outbox.textLength = 1;
    outbox.append(EVENT_PAGE + 20, { hint: false });
    const client = open(outbox);
    const ids = idsIn(await client.drain());
    expect(ids).toHaveLength(EVENT_PAGE + 20);
    expect(ids).toEqual(ids.map((_, index) => index + 1));
  });

  it("finds rows whose hint was missed at the next poll (1 s of the clock)", async () => {
    const outbox = new FakeOutbox();
    const client = open(outbox);
    expect(await client.drain()).toBe("");
    outbox.append(3, { hint: false });
    expect(await client.drain()).toBe("");
    client.clock.advance(EVENT_POLL_MS);
    expect(idsIn(await client.drain())).toEqual([1, 2, 3]);
  });

  it("never runs two reads at once: hints during a read make one more read after it", async () => {
    const outbox = new FakeOutbox();
    const client = open(outbox);
    await client.drain();
    outbox.hold();
    outbox.append(1);
    outbox.append(1);
    client.clock.advance(3 * EVENT_POLL_MS);
    outbox.append(1);
    await settle();
    const readsWhileHeld = outbox.reads;
    outbox.release();
    expect(idsIn(await client.drain())).toEqual([1, 2, 3]);
    expect(outbox.mostInFlight).toBe(1);
    // The held read, then one more for the hints that came meanwhile.
    expect(outbox.reads).toBe(readsWhileHeld + 1);
  });

  it("writes `: keep-alive` every 25 s of the injected clock", async () => {
    const outbox = new FakeOutbox();
    const client = open(outbox);
    client.clock.advance(EVENT_KEEP_ALIVE_MS - 1);
    expect(await client.drain()).toBe("");
    client.clock.advance(1);
    expect(await client.drain()).toBe(": keep-alive\n\n");
    client.clock.advance(2 * EVENT_KEEP_ALIVE_MS);
    expect(await client.drain()).toBe(": keep-alive\n\n: keep-alive\n\n");
  });

  it("survives a database outage: reads are retried each poll, logged once, and resume at the same position", async () => {
    const outbox = new FakeOutbox();
    outbox.append(2, { hint: false });
    const client = open(outbox);
    expect(idsIn(await client.drain())).toEqual([1, 2]);
    outbox.failure = new RelayError("REMOTE_RELAY_UNAVAILABLE", "The database does not answer.");
    outbox.append(2);
    client.clock.advance(5 * EVENT_POLL_MS);
    await settle();
    expect(await client.drain()).toBe("");
    expect(client.ended()).toBe(false);
    expect(client.logger.lines.filter((line) => line.startsWith("warn"))).toHaveLength(1);
    outbox.failure = undefined;
    client.clock.advance(EVENT_POLL_MS);
    expect(idsIn(await client.drain())).toEqual([3, 4]);
    expect(client.logger.lines).toEqual([
      "warn: owner event stream: reading the outbox failed; retrying every poll",
      "info: owner event stream: reading the outbox again",
    ]);
    // The outage by its message, not the Error: no stack formatted for it.
    expect(client.logger.fields[0]).toMatchObject({ error: "The database does not answer." });
  });

  it("logs a read that failed otherwise with its Error, stack and all", async () => {
    const outbox = new FakeOutbox();
    const client = open(outbox);
    const failure = new Error("not an outage");
    outbox.failure = failure;
    outbox.append(1);
    client.clock.advance(EVENT_POLL_MS);
    await settle();
    expect(client.logger.lines).toEqual([
      "warn: owner event stream: reading the outbox failed; retrying every poll",
    ]);
    expect(client.logger.fields[0]).toMatchObject({ error: failure });
  });

  it("stops reading for a client that does not read (backpressure), and goes on where it stopped", async () => {
    const outbox = new FakeOutbox();
    outbox.textLength = 150;
    outbox.append(3 * EVENT_PAGE, { hint: false });
    const clock = new FakeClock();
    const stream = ownerEventStream({
      source: outbox,
      after: 0,
      clock,
      logger: recordingLogger(),
      requestId: "req_events",
      streams: new OpenStreams(),
    });
    await settle();
    // One page (over 64 KiB) fills the queue: no read follows, hints and polls included.
    expect(outbox.reads).toBe(1);
    outbox.append(1);
    clock.advance(10 * EVENT_POLL_MS);
    await settle();
    expect(outbox.reads).toBe(1);
    const reader = stream.getReader();
    let text = "";
    while (idsIn(text).length < 3 * EVENT_PAGE + 1) {
      const next = await reader.read();
      text += decoder.decode(next.value);
    }
    const ids = idsIn(text);
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    await reader.cancel();
  });

  it("when the client goes away: stops listening for hints and leaves no timer", async () => {
    const outbox = new FakeOutbox();
    const client = open(outbox);
    await client.drain();
    expect(outbox.listeners.size).toBe(1);
    expect(client.clock.pendingTimers()).toBe(2);
    expect(client.streams.size).toBe(1);
    await client.reader.cancel();
    expect(outbox.listeners.size).toBe(0);
    expect(client.clock.pendingTimers()).toBe(0);
    expect(client.streams.size).toBe(0);
  });

  it("when the request's signal aborts: the same", async () => {
    const outbox = new FakeOutbox();
    const clock = new FakeClock();
    const connection = new AbortController();
    ownerEventStream({
      source: outbox,
      after: 0,
      clock,
      logger: recordingLogger(),
      requestId: "req_events",
      streams: new OpenStreams(),
      signal: connection.signal,
    });
    await settle();
    connection.abort();
    expect(outbox.listeners.size).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("when the relay closes: the stream ends cleanly after what was written, and no new one opens", async () => {
    const outbox = new FakeOutbox();
    outbox.append(1, { hint: false });
    const client = open(outbox);
    await settle();
    outbox.hold();
    outbox.append(1);
    const closed = client.streams.close();
    outbox.release();
    await closed;
    expect(idsIn(await client.drain())).toEqual([1]);
    expect(client.ended()).toBe(true);
    expect(outbox.listeners.size).toBe(0);
    expect(client.clock.pendingTimers()).toBe(0);

    const late = ownerEventStream({
      source: outbox,
      after: 0,
      clock: client.clock,
      logger: recordingLogger(),
      requestId: "req_late",
      streams: client.streams,
    });
    expect(await late.getReader().read()).toEqual({ done: true, value: undefined });
    expect(outbox.listeners.size).toBe(0);
  });
});
