import { SERVED_BY_HEADER } from "../lib/haproxy";

/** One HTTP call a client made through the balancer, as the ledger and the figures read it. */
export interface CallRecord {
  /** `owner POST /sessions`, `tool send`, … */
  readonly what: string;
  readonly at: number;
  readonly ms: number;
  /** The HTTP status; 0 when no response came (refused, reset, timed out). */
  readonly status: number;
  readonly ok: boolean;
  /** The relay's error code, `HTTP_<status>` for a balancer's error page, `CUT` for a body cut short. */
  readonly code: string | null;
  readonly servedBy: string | null;
  /** The error text of a failed call, shortened. */
  readonly error: string | null;
}

export interface CallResult {
  readonly ok: boolean;
  readonly status: number;
  readonly body: Record<string, unknown> | null;
  readonly code: string | null;
  readonly servedBy: string | null;
  readonly error: string | null;
}

/**
 * The clients' HTTP calls, all through the one address of the cluster, each recorded. A call never
 * throws: a refusal, an error page of the balancer, a cut connection or a body cut short all come
 * back as a failed result with what is known of it.
 */
export class Calls {
  readonly records: CallRecord[] = [];

  constructor(
    readonly base: string,
    private readonly ownerToken: string,
  ) {}

  owner(method: "GET" | "POST" | "PATCH", path: string, body?: unknown): Promise<CallResult> {
    const route = path.replace(/\/(ses|card|ask|sch|sub|tsk)_[a-z0-9]+/g, "/:id").replace(/\?.*$/, "");
    return this.call(`owner ${method} ${route.replace("/v1/owner", "")}`, `${this.base}${path}`, {
      method,
      token: this.ownerToken,
      body,
      timeoutMs: 60_000,
    });
  }

  tool(token: string, call: { readonly action: string } & Record<string, unknown>): Promise<CallResult> {
    const waitSeconds = typeof call.wait_seconds === "number" ? call.wait_seconds : 0;
    return this.call(`tool ${call.action}`, `${this.base}/v1/tool`, {
      method: "POST",
      token,
      body: call,
      // A held call answers within its wait; past it by a minute, the link is taken as dead.
      timeoutMs: (waitSeconds + 60) * 1000,
    });
  }

  private async call(
    what: string,
    url: string,
    init: { method: string; token: string; body?: unknown; timeoutMs: number },
  ): Promise<CallResult> {
    const at = Date.now();
    let status = 0;
    let servedBy: string | null = null;
    let result: CallResult;
    try {
      const response = await fetch(url, {
        method: init.method,
        headers: { authorization: `Bearer ${init.token}`, "content-type": "application/json" },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(init.timeoutMs),
      });
      status = response.status;
      servedBy = response.headers.get(SERVED_BY_HEADER);
      const text = await response.text();
      result = interpret(status, servedBy, text);
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      result = {
        ok: false,
        status,
        body: null,
        // A response that began (status known) and broke off is a body cut short.
        code: status === 0 ? (cause?.code ?? "NO_RESPONSE") : "CUT",
        servedBy,
        error: `${message}${cause?.message ? `: ${cause.message}` : ""}`.slice(0, 200),
      };
    }
    this.records.push({
      what,
      at,
      ms: Date.now() - at,
      status: result.status,
      ok: result.ok,
      code: result.code,
      servedBy: result.servedBy,
      error: result.ok ? null : result.error,
    });
    return result;
  }
}

function interpret(status: number, servedBy: string | null, text: string): CallResult {
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // An error page of the balancer, or a body cut short.
  }
  if (body === null) {
    const code = status >= 200 && status < 300 ? "CUT" : `HTTP_${status}`;
    return { ok: false, status, body: null, code, servedBy, error: text.trim().slice(0, 200) };
  }
  const refused = body.ok === false || status < 200 || status >= 300;
  return {
    ok: !refused,
    status,
    body,
    code: refused ? (typeof body.code === "string" ? body.code : `HTTP_${status}`) : null,
    servedBy,
    error: refused ? String(body.error ?? text).slice(0, 300) : null,
  };
}

/**
 * A failure a client may retry: no response, a body cut short, the balancer's error page, or the
 * relay's own "the database does not answer, nothing was changed" (REMOTE_RELAY_UNAVAILABLE).
 */
export function isTransient(result: { readonly status: number; readonly code: string | null }): boolean {
  return (
    result.status === 0 ||
    result.code === "CUT" ||
    result.code === "REMOTE_RELAY_UNAVAILABLE" ||
    (result.code?.startsWith("HTTP_") ?? false)
  );
}
