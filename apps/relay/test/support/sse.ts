import type { AddressInfo } from "node:net";
import type { ReadableStreamReadResult } from "node:stream/web";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { onTestFinished } from "vitest";

/** Serves an app on 127.0.0.1 on a free port, as `oar-relay start` does; closed when the test ends. */
export async function listen(app: Hono): Promise<{ readonly base: string; close(): Promise<void> }> {
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Open streams and the global fetch's keep-alive connections would hold close() open.
      if ("closeAllConnections" in server) {
        server.closeAllConnections();
      }
    });
    return closed;
  };
  onTestFinished(close);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

const decoder = new TextDecoder();

/** A server-sent event stream read over HTTP: its events and comments, as the spec parses them. */
export class SseReader {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = "";
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(readonly response: Response) {
    if (!response.body) {
      throw new Error(`no body (HTTP ${response.status})`);
    }
    this.reader = response.body.getReader();
    onTestFinished(() => this.close());
  }

  /** Reads until `done(this)` holds; fails after `timeoutMs`. */
  async until(done: (reader: SseReader) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this)) {
      if (this.ended) {
        throw new Error(`the stream ended first; events: ${JSON.stringify(this.events)}`);
      }
      const left = deadline - Date.now();
      if (left <= 0 || !(await this.readFor(left))) {
        throw new Error(`not reached within ${timeoutMs} ms; events: ${JSON.stringify(this.events)}`);
      }
    }
  }

  /** Reads whatever arrives within `ms`. */
  async readDuring(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (let left = ms; left > 0 && !this.ended; left = deadline - Date.now()) {
      await this.readFor(left);
    }
  }

  /** Waits for the end of the stream (the server closed it). */
  async untilEnd(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0 || !(await this.readFor(left))) {
        throw new Error(`the stream did not end within ${timeoutMs} ms`);
      }
    }
  }

  async close(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      await this.reader.cancel().catch(() => {});
    }
  }

  /** One chunk, or false when none came within `ms` (the read stays pending for the next call). */
  private async readFor(ms: number): Promise<boolean> {
    this.pending ??= this.reader.read();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    const next = await Promise.race([this.pending, timeout]).finally(() => clearTimeout(timer));
    if (next === undefined) {
      return false;
    }
    this.pending = undefined;
    if (next.done) {
      this.ended = true;
    } else {
      this.take(decoder.decode(next.value, { stream: true }));
    }
    return true;
  }

  private take(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: string | undefined;
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") {
          id = value;
        } else if (field === "event") {
          event = value;
        } else if (field === "data") {
          data.push(value);
        }
      }
      if (data.length > 0 || event !== undefined || id !== undefined) {
        this.events.push({ id, event, data: data.join("\n") });
      }
    }
  }
}

/** GET /v1/owner/events over HTTP. */
export async function connectEvents(
  base: string,
  options: { readonly token?: string; readonly lastEventId?: string; readonly query?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: "text/event-stream" };
  if (options.token !== undefined) {
    headers.Authorization = `Bearer ${options.token}`;
  }
  if (options.lastEventId !== undefined) {
    headers["Last-Event-ID"] = options.lastEventId;
  }
  return fetch(`${base}/v1/owner/events${options.query ?? ""}`, { headers });
}
