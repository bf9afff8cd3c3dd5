import type { IncomingMessage } from "node:http";

/** A request a fake API got, as the tests look at it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  readonly path: string;
  /** Lower-cased names, as Node gives them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; the raw text when it is not JSON; `undefined` when empty. */
  readonly body: unknown;
}

/** Reads a request's body and records it; resolves once the body has ended. */
export function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      resolve({
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: headersOf(req),
        body: parseBody(Buffer.concat(chunks).toString("utf8")),
      });
    });
  });
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) {
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
  }
  return headers;
}

function parseBody(raw: string): unknown {
  if (raw === "") {
    return undefined;
  }
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
