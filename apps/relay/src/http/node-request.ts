import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";

declare module "hono" {
  interface ContextVariableMap {
    /**
     * The Node request whose body limitBody checked by its Content-Length without reading it: the
     * body is read from it directly (readJson), and its response tells when the client went away.
     */
    nodeRequest: { readonly incoming: IncomingMessage; readonly outgoing: ServerResponse };
  }
}

/**
 * Bodies over `maxBytes` are refused by `refuse`. Under @hono/node-server a body with a
 * Content-Length is checked by that header and left in the Node request: touching the Web
 * Request's body or signal makes @hono/node-server build an undici Request, a web stream and an
 * AbortController for it, a sixth of a read_session's time on the relay (issue 29). A chunked body,
 * or a request made without Node (app.request), goes through Hono's bodyLimit as before.
 */
export function limitBody(maxBytes: number, refuse: (c: Context) => Response): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return createMiddleware(async (c, next) => {
    const node = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    const length = node?.incoming?.headers["content-length"];
    if (
      node?.incoming === undefined ||
      node.outgoing === undefined ||
      length === undefined ||
      node.incoming.headers["transfer-encoding"] !== undefined
    ) {
      return streamed(c, next);
    }
    if (Number(length) > maxBytes) {
      return refuse(c);
    }
    c.set("nodeRequest", { incoming: node.incoming, outgoing: node.outgoing });
    return next();
  });
}

/** The body limitBody left in the Node request, as text. */
export async function nodeBodyText(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Calls `onGone` when the client goes away before the response is written whole (as
 * @hono/node-server aborts the Web Request's signal); without a Node request, on that signal.
 */
export function onClientGone(c: Context, onGone: { handleEvent(): void }): void {
  const node = c.get("nodeRequest");
  if (node === undefined) {
    c.req.raw.signal.addEventListener("abort", onGone, { once: true });
    return;
  }
  node.outgoing.once("close", () => {
    if (node.incoming.errored || !node.outgoing.writableFinished) {
      onGone.handleEvent();
    }
  });
}
