import { isRelayError, RelayError, type RelayErrorCode } from "@oar/core";
import {
  ErrorEnvelopeSchema,
  type PeerEventsPage,
  PeerEventsPageSchema,
  type PeerInfo,
  PeerInfoSchema,
  type PeerQuestionStatus,
  PeerQuestionStatusSchema,
  type PeerToolRequest,
  PeerToolRequestSchema,
  type RelayToolResultEnvelope,
  RelayToolResultEnvelopeSchema,
} from "@oar/schema";
import ky from "ky";
import {
  type BodyLimit,
  discardBody,
  type Exchange,
  MAX_RESPONSE_BYTES,
  readBody,
  startExchange,
} from "./exchange";

/** GET /v1/peer/info answers at once; a peer that takes longer is treated as not answering. */
export const DEFAULT_INFO_TIMEOUT_MS = 5000;
/** A page of a subscription's events answers at once too (R-PAIR-03: polled every few seconds). */
export const DEFAULT_EVENTS_TIMEOUT_MS = 10_000;

export interface PeerClientOptions {
  /** The peer's base URL, e.g. https://build-box.example.com or http://127.0.0.1:8787/relay/. */
  readonly url: string;
  /** The invite token the peer issued: the bearer of every call. It never appears in an error. */
  readonly token: string;
  /** Defaults to the global fetch; tests pass another relay's `app.request`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Bounds a whole info() call, its one retry included. */
  readonly infoTimeoutMs?: number;
}

/** The peer surface of one paired relay (DESIGN §4, prefix /v1/peer). */
export interface PeerClient {
  /** GET /v1/peer/info: the peer's name, version and features. Retried once on NETWORK. */
  info(options?: { readonly signal?: AbortSignal }): Promise<PeerInfo>;
  /**
   * POST /v1/peer/tool: runs a relay_tool call there. A refused call is a result (`ok: false`),
   * not an exception. `timeoutMs` bounds the whole exchange, the peer's own waiting included.
   * Never retried: the call may have had effects.
   */
  tool(
    request: PeerToolRequest,
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<RelayToolResultEnvelope>;
  /**
   * GET /v1/peer/subscriptions/:id/events?after=&limit= (§28, R-PAIR-04): the subscription's
   * events after the cursor `after` (none: from its start), oldest first, at most `limit`.
   * Retried once on NETWORK, like info (a GET changes nothing). A subscription that ended there
   * and has nothing left to replay, or that is not this relay's, is REMOTE_RELAY_NOT_FOUND.
   */
  subscriptionEvents(
    subscriptionId: string,
    query: { readonly after?: string | null; readonly limit?: number },
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<PeerEventsPage>;
  /**
   * GET /v1/peer/questions/:id (R-QCHK-05): a question this relay asked there, with its status
   * and answer. Retried once on NETWORK. Unknown there, or not this relay's: REMOTE_RELAY_NOT_FOUND.
   */
  question(
    questionId: string,
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<PeerQuestionStatus>;
}

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What the client needs of a zod schema, so it need not import zod itself. */
interface ResponseSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}

interface Route<T> {
  readonly method: "GET" | "POST";
  /** Relative to the base URL: no leading slash, so a base with a path prefix keeps it. */
  readonly path: string;
  readonly schema: ResponseSchema<T>;
  /** What a valid answer is, for the VALIDATION message. */
  readonly expected: string;
}

const INFO_ROUTE: Route<PeerInfo> = {
  method: "GET",
  path: "v1/peer/info",
  schema: PeerInfoSchema,
  expected: "a peer info object",
};

const TOOL_ROUTE: Route<RelayToolResultEnvelope> = {
  method: "POST",
  path: "v1/peer/tool",
  schema: RelayToolResultEnvelopeSchema,
  expected: "a relay_tool result",
};

export function createPeerClient(options: PeerClientOptions): PeerClient {
  const token = checkToken(options.token);
  const base = parseBaseUrl(options.url, token);
  const host = base.host;
  const infoTimeoutMs = options.infoTimeoutMs ?? DEFAULT_INFO_TIMEOUT_MS;
  const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  /** Every message is built here, so the token cannot slip into one (from the peer's own text either). */
  const fail = (
    code: RelayErrorCode,
    message: string,
    extra: { retryable?: boolean; cause?: unknown; status?: number } = {},
  ) =>
    new RelayError(code, redact(message, token), {
      retryable: extra.retryable ?? false,
      context: extra.status === undefined ? { host } : { host, status: extra.status },
      cause: extra.cause,
    });

  const label = (route: Route<unknown>) => `${route.method} /${route.path}`;

  /** Every body is read up to MAX_RESPONSE_BYTES: a peer cannot make this relay hold more. */
  const bodyLimit = (route: Route<unknown>, status: number): BodyLimit => ({
    maxBytes: MAX_RESPONSE_BYTES,
    exceeded: () =>
      fail(
        "REMOTE_RELAY_UNREACHABLE",
        `The relay at ${host} sent a response over ${MAX_RESPONSE_BYTES / (1024 * 1024)} MB to ${label(route)}; this relay stopped reading it.${route.method === "POST" ? " The call may have run there." : ""}`,
        { status },
      ),
  });

  /** A failure while the exchange was on the wire: the deadline, the caller, or the network. */
  const interrupted = (route: Route<unknown>, exchange: Exchange, timeoutMs: number, cause: unknown) => {
    switch (exchange.stopReason()) {
      case "deadline":
        return fail(
          "TIMEOUT",
          `The relay at ${host} did not answer ${label(route)} within ${timeoutMs} ms.`,
          { retryable: true },
        );
      case "caller":
        return fail(
          "NETWORK",
          `The call to the relay at ${host} (${label(route)}) was cancelled by the caller.`,
        );
      default:
        if (isRelayError(cause)) {
          return cause;
        }
        return fail(
          "NETWORK",
          `Could not reach the relay at ${host} (${label(route)}): ${describeCause(cause)}.`,
          { retryable: true, cause },
        );
    }
  };

  const parseBody = <T>(route: Route<T>, text: string): T => {
    if (text.trim() === "") {
      throw fail("VALIDATION", `The relay at ${host} answered ${label(route)} with an empty body.`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw fail(
        "VALIDATION",
        `The relay at ${host} answered ${label(route)} with a body that is not JSON (${describeCause(cause)}).`,
      );
    }
    const parsed = route.schema.safeParse(json);
    if (!parsed.success) {
      throw fail(
        "VALIDATION",
        `The relay at ${host} answered ${label(route)} with a body that is not ${route.expected}: ${describeIssue(parsed.error.issues)}.`,
      );
    }
    return parsed.data;
  };

  const refusal = (route: Route<unknown>, status: number, text: string): RelayError => {
    const envelope = ErrorEnvelopeSchema.safeParse(parseJsonOrUndefined(text));
    if (status >= 500) {
      const detail = envelope.success
        ? `, ${envelope.data.code}: ${envelope.data.error}${envelope.data.requestId ? ` (request ${envelope.data.requestId})` : ""}`
        : "";
      return fail("NETWORK", `The relay at ${host} failed on ${label(route)} (HTTP ${status}${detail}).`, {
        retryable: true,
        status,
      });
    }
    if (envelope.success) {
      const wire = RelayError.fromWire({ ...envelope.data, error: redact(envelope.data.error, token) });
      return new RelayError(wire.code, wire.message, { context: { ...wire.context, host, status } });
    }
    return fail(
      "VALIDATION",
      `The relay at ${host} refused ${label(route)} with HTTP ${status} and no error envelope.`,
      { status },
    );
  };

  const send = async <T>(
    route: Route<T>,
    exchange: Exchange,
    timeoutMs: number,
    body?: unknown,
  ): Promise<T> => {
    try {
      if (exchange.signal.aborted) {
        // Stopped before it started (a caller's signal already aborted): nothing goes out.
        throw exchange.signal.reason;
      }
      const response = await Promise.race([
        ky(new URL(route.path, base).href, {
          method: route.method,
          headers: { authorization: `Bearer ${token}`, accept: "application/json" },
          ...(body === undefined ? {} : { json: body }),
          fetch,
          signal: exchange.signal,
          timeout: false,
          retry: 0,
          throwHttpErrors: false,
          redirect: "manual",
        }),
        exchange.stopped,
      ]);
      const { status } = response;
      if (status === 401 || status === 403) {
        discardBody(response);
        throw fail(
          "REMOTE_RELAY_AUTH",
          `${host} refused this relay's token (HTTP ${status} on ${label(route)}): pair again with a new invite token from that relay.`,
          { status },
        );
      }
      if (status === 404) {
        discardBody(response);
        throw fail(
          "REMOTE_RELAY_UNSUPPORTED",
          `The relay at ${host} has no peer surface for ${label(route)} (HTTP 404): it runs an older OAR without this route, or it is not an OAR relay.`,
          { status },
        );
      }
      if (response.type === "opaqueredirect" || (status >= 300 && status < 400)) {
        discardBody(response);
        const location = response.headers.get("location");
        throw fail(
          "VALIDATION",
          `The relay at ${host} answered ${label(route)} with a redirect (HTTP ${status}${location ? ` to ${location}` : ""}); pair with the address it points to.`,
          { status },
        );
      }
      const text = await readBody(response, exchange, bodyLimit(route, status));
      if (status >= 200 && status < 300) {
        return parseBody(route, text);
      }
      throw refusal(route, status, text);
    } catch (cause) {
      throw interrupted(route, exchange, timeoutMs, cause);
    }
  };

  return {
    async info(callOptions = {}) {
      const exchange = startExchange(infoTimeoutMs, callOptions.signal);
      try {
        try {
          return await send(INFO_ROUTE, exchange, infoTimeoutMs);
        } catch (error) {
          // GET is idempotent: one immediate retry when the network (or a 5xx) failed it.
          if (isRelayError(error) && error.code === "NETWORK" && error.retryable) {
            return await send(INFO_ROUTE, exchange, infoTimeoutMs);
          }
          throw error;
        }
      } finally {
        exchange.end();
      }
    },

    async tool(request, callOptions) {
      const checked = PeerToolRequestSchema.safeParse(request);
      if (!checked.success) {
        throw fail(
          "VALIDATION",
          `The call for the relay at ${host} is not a peer tool request: ${describeIssue(checked.error.issues)}.`,
        );
      }
      const exchange = startExchange(callOptions.timeoutMs, callOptions.signal);
      try {
        // The request as given, not the parsed copy: fields this relay's schema does not know stay.
        return await send(TOOL_ROUTE, exchange, callOptions.timeoutMs, request);
      } finally {
        exchange.end();
      }
    },

    async subscriptionEvents(subscriptionId, query, callOptions = {}) {
      if (
        subscriptionId === "" ||
        (query.limit !== undefined && (!Number.isInteger(query.limit) || query.limit < 1))
      ) {
        throw fail(
          "VALIDATION",
          `A subscription events request for the relay at ${host} needs a subscription id and a whole limit of at least 1.`,
        );
      }
      return getWithRetry(eventsRoute(subscriptionId, query), callOptions);
    },

    async question(questionId, callOptions = {}) {
      if (questionId.trim() === "") {
        throw fail("VALIDATION", `A question request for the relay at ${host} needs a question id.`);
      }
      return getWithRetry(
        {
          method: "GET",
          path: `v1/peer/questions/${encodeURIComponent(questionId)}`,
          schema: PeerQuestionStatusSchema,
          expected: "a question status",
        },
        callOptions,
      );
    },
  };

  /** A GET changes nothing: one immediate retry when the network (or a 5xx) failed it. */
  async function getWithRetry<T>(
    route: Route<T>,
    callOptions: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<T> {
    const timeoutMs = callOptions.timeoutMs ?? DEFAULT_EVENTS_TIMEOUT_MS;
    const exchange = startExchange(timeoutMs, callOptions.signal);
    try {
      try {
        return await send(route, exchange, timeoutMs);
      } catch (error) {
        if (isRelayError(error) && error.code === "NETWORK" && error.retryable) {
          return await send(route, exchange, timeoutMs);
        }
        throw error;
      }
    } finally {
      exchange.end();
    }
  }
}

function eventsRoute(
  subscriptionId: string,
  query: { readonly after?: string | null; readonly limit?: number },
): Route<PeerEventsPage> {
  const params = new URLSearchParams();
  if (query.after !== undefined && query.after !== null) {
    params.set("after", query.after);
  }
  if (query.limit !== undefined) {
    params.set("limit", String(query.limit));
  }
  const search = params.toString();
  return {
    method: "GET",
    path: `v1/peer/subscriptions/${encodeURIComponent(subscriptionId)}/events${search === "" ? "" : `?${search}`}`,
    schema: PeerEventsPageSchema,
    expected: "a page of subscription events",
  };
}

function parseBaseUrl(raw: string, token: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RelayError(
      "VALIDATION",
      redact(`"${raw}" is not a URL: give the paired relay's address.`, token),
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new RelayError(
      "VALIDATION",
      `A paired relay's address must be http(s):// (got ${url.protocol}//).`,
    );
  }
  if (url.username || url.password) {
    throw new RelayError("VALIDATION", "A paired relay's address must not hold a user name or password.");
  }
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) {
    url.pathname = `${url.pathname}/`;
  }
  return url;
}

function checkToken(token: string): string {
  // Printable ASCII only: a header value cannot hold control characters, and fetch would throw
  // a TypeError that looks like a network failure.
  if (typeof token !== "string" || !/^[!-~]+$/.test(token)) {
    throw new RelayError(
      "VALIDATION",
      "A peer token must be a non-empty string of printable ASCII characters.",
    );
  }
  return token;
}

function redact(text: string, token: string): string {
  return text.split(token).join("[token]");
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeIssue(issues: readonly Issue[]): string {
  const issue = issues[0];
  if (!issue) {
    return "invalid";
  }
  const path = issue.path.map(String).join(".");
  return path ? `at "${path}": ${issue.message}` : issue.message;
}

/** The innermost reason of a failure, e.g. "connect ECONNREFUSED 127.0.0.1:8787" under "fetch failed". */
function describeCause(cause: unknown): string {
  let current: unknown = cause;
  let text = "unknown failure";
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      text = current.message || (typeof code === "string" ? code : current.name);
      if (typeof code === "string" && !text.includes(code)) {
        text = `${code}: ${text}`;
      }
      current = current.cause;
    } else {
      text = String(current);
      break;
    }
  }
  return text;
}
