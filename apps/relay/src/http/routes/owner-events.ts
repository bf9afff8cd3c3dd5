import { type Clock, type Logger, RelayError } from "@oar/core";
import type { Engine } from "@oar/engine";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type OpenStreams, type OutboxSource, ownerEventStream } from "../owner-event-stream";
import { parseWith } from "../validate";

/** An event id as this relay writes it: the outbox seq, a whole number. */
const SEQ = /^\d{1,15}$/;

export const EventsQuerySchema = z.strictObject({
  after: z.string().regex(SEQ, "expected the id of an event this relay sent (a whole number)").optional(),
  from: z.literal("start", 'expected "start" (the whole outbox)').optional(),
});

type Requested =
  | { readonly after: number; readonly named: "Last-Event-ID" | "after" }
  | { readonly from: "start" | "end" };

/**
 * Where the client asks to start: after `Last-Event-ID`, else after `?after=`, else from the
 * first row (`?from=start`), else at the current end. The header wins over `?after=`: an
 * EventSource reconnects to the URL it was opened with, and the header holds where it got to since.
 */
function requestedStart(c: Context): Requested {
  const query = parseWith(EventsQuerySchema, c.req.query());
  // An empty id is what an EventSource holds before its first event; it sends no header then.
  const header = c.req.header("Last-Event-ID")?.trim() || undefined;
  if (header !== undefined) {
    if (!SEQ.test(header)) {
      throw new RelayError(
        "REMOTE_RELAY_INVALID_INPUT",
        `Last-Event-ID: expected the id of an event this relay sent (a whole number), got ${JSON.stringify(header.slice(0, 40))}.`,
      );
    }
    return { after: Number(header), named: "Last-Event-ID" };
  }
  if (query.after !== undefined) {
    return { after: Number(query.after), named: "after" };
  }
  return { from: query.from ?? "end" };
}

/**
 * GET /v1/owner/events (DESIGN §4): the outbox as server-sent events, `id:` the row's seq,
 * `event:` its kind, `data:` its JSON, from where the client asks (`requestedStart`).
 */
export function ownerEventRoutes(deps: {
  readonly engine: Engine;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly streams: OpenStreams;
  readonly keepAliveMs: number;
}): Hono {
  const source: OutboxSource = deps.engine.owner;
  const app = new Hono();
  app.get("/", async (c) => {
    const requested = requestedStart(c);
    if (deps.streams.isClosed) {
      throw new RelayError(
        "REMOTE_RELAY_UNAVAILABLE",
        "The relay is stopping; connect again once it is back.",
      );
    }
    let after: number;
    if ("after" in requested) {
      after = requested.after;
      // An id above the newest row is not one this outbox gave (a reset database, another
      // relay's): resuming there would skip every event up to it without a word.
      const last = await deps.engine.owner.lastEventSeq();
      if (after > last) {
        throw new RelayError(
          "REMOTE_RELAY_INVALID_INPUT",
          `${requested.named}: no event ${after} on this relay (its newest is ${last}); connect without it to start from now.`,
        );
      }
    } else {
      after = requested.from === "start" ? 0 : await deps.engine.owner.lastEventSeq();
    }
    const stream = ownerEventStream({
      source,
      after,
      clock: deps.clock,
      logger: deps.logger,
      requestId: c.get("requestId"),
      streams: deps.streams,
      keepAliveMs: deps.keepAliveMs,
      signal: c.req.raw.signal,
    });
    return c.body(stream, 200, {
      // SSE is UTF-8 by definition; no charset parameter.
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      // Proxies that buffer responses (nginx) pass this one through as it is written.
      "X-Accel-Buffering": "no",
    });
  });
  return app;
}
