import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_TOKEN } from "../harness";
import { type ServedRelay, serveRelay, turnsEnded } from "../support/served-relay";
import { SseReader } from "../support/sse";
import { Contract } from "./contract";

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One request over the socket; `path` is concrete, `documented` the operation's OpenAPI path. */
async function call(
  served: ServedRelay,
  request: {
    readonly method: string;
    readonly path: string;
    readonly token?: string;
    readonly body?: unknown;
  },
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (request.token !== undefined) {
    headers.Authorization = `Bearer ${request.token}`;
  }
  if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(`${served.base}${request.path}`, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text.trim() === "" ? null : JSON.parse(text) };
}

describe("real responses match the documented schemas (GET /openapi.json)", { timeout: 60_000 }, () => {
  let root: string;
  let served: ServedRelay;
  let contract: Contract;
  let document: ConstructorParameters<typeof Contract>[0];

  /** Makes the call and checks its answer against the document; the answer, for the next step. */
  async function checked(
    request: {
      readonly method: string;
      readonly path: string;
      readonly token?: string;
      readonly body?: unknown;
    },
    documented: string,
    status = 200,
  ): Promise<Answer> {
    if (request.body !== undefined) {
      // The request too: what the relay accepts, the document accepts, and what it refuses as a
      // bad body (400), the document refuses.
      const problems = contract.requestErrors({ method: request.method, path: documented }, request.body);
      expect(problems.length === 0, problems.join("\n")).toBe(status !== 400);
    }
    const answer = await call(served, request);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(
      contract.responseErrors({ method: request.method, path: documented }, status, answer.body),
    ).toEqual([]);
    return answer;
  }

  const owner = (method: string, path: string, body?: unknown) => ({
    method,
    path,
    token: OWNER_TOKEN,
    ...(body === undefined ? {} : { body }),
  });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "oar-openapi-"));
    served = await serveRelay({ dataDir: "memory://", allowedRoots: [root] });
    // The served document, as a client gets it: no token.
    const response = await fetch(`${served.base}/openapi.json`);
    document = (await response.json()) as typeof document;
    contract = new Contract(document);
  });

  afterAll(async () => {
    await served?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("GET /healthz and GET /openapi.json, with no token", async () => {
    await checked({ method: "GET", path: "/healthz" }, "/healthz");
    await checked({ method: "GET", path: "/openapi.json" }, "/openapi.json");
  });

  it("GET /metrics: Prometheus text for the owner, the envelope without a token", async () => {
    await checked({ method: "GET", path: "/metrics" }, "/metrics", 401);
    const response = await fetch(`${served.base}/metrics`, {
      headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(
      contract.responseErrors({ method: "GET", path: "/metrics" }, 200, await response.text(), "text/plain"),
    ).toEqual([]);
  });

  it("owner sessions: create, list, get (with its reply), patch, message, token, archive, kill, delete", async () => {
    const created = await checked(
      owner("POST", "/v1/owner/sessions", { title: "Echo", text: "hello relay" }),
      "/v1/owner/sessions",
    );
    const { id } = created.body as { id: string };
    await checked(owner("GET", "/v1/owner/sessions"), "/v1/owner/sessions");
    await turnsEnded(served, id);
    await checked(owner("GET", `/v1/owner/sessions/${id}`), "/v1/owner/sessions/{id}");
    await checked(
      owner("PATCH", `/v1/owner/sessions/${id}`, { title: "Renamed", mode: "plan" }),
      "/v1/owner/sessions/{id}",
    );
    await checked(
      owner("POST", `/v1/owner/sessions/${id}/messages`, { text: "!reply pong" }),
      "/v1/owner/sessions/{id}/messages",
    );
    await turnsEnded(served, id);
    await checked(owner("POST", `/v1/owner/sessions/${id}/token`), "/v1/owner/sessions/{id}/token");
    await checked(owner("POST", `/v1/owner/sessions/${id}/kill`), "/v1/owner/sessions/{id}/kill");
    await checked(owner("POST", `/v1/owner/sessions/${id}/archive`), "/v1/owner/sessions/{id}/archive");
    await checked(owner("GET", "/v1/owner/sessions?scope=all"), "/v1/owner/sessions");
    await checked(owner("DELETE", `/v1/owner/sessions/${id}`), "/v1/owner/sessions/{id}");
  });

  it("owner settings, groups, cards, inbox, providers, peers and invites", async () => {
    await checked(owner("GET", "/v1/owner/settings"), "/v1/owner/settings");
    await checked(owner("PATCH", "/v1/owner/settings", { quietAfterMinutes: 15 }), "/v1/owner/settings");
    const group = await checked(owner("POST", "/v1/owner/groups", { name: "Team" }), "/v1/owner/groups");
    const groupId = (group.body as { id: string }).id;
    await checked(owner("GET", "/v1/owner/groups"), "/v1/owner/groups");
    await checked(owner("PATCH", `/v1/owner/groups/${groupId}`, { name: "Crew" }), "/v1/owner/groups/{id}");
    await checked(owner("DELETE", `/v1/owner/groups/${groupId}`), "/v1/owner/groups/{id}");
    await checked(owner("GET", "/v1/owner/cards"), "/v1/owner/cards");
    await checked(owner("GET", "/v1/owner/inbox?closed=true"), "/v1/owner/inbox");
    await checked(owner("GET", "/v1/owner/providers"), "/v1/owner/providers");
    await checked(owner("POST", "/v1/owner/peers/invites"), "/v1/owner/peers/invites");
    await checked(owner("GET", "/v1/owner/peers/invites"), "/v1/owner/peers/invites");
    await checked(owner("GET", "/v1/owner/peers"), "/v1/owner/peers");
  });

  it("POST /v1/tool: relay_info, list_sessions, send (waited for), and a refused call", async () => {
    const caller = (await call(served, owner("POST", "/v1/owner/sessions", { provider: "external" })))
      .body as {
      id: string;
    };
    const target = (await call(served, owner("POST", "/v1/owner/sessions", { title: "Target" }))).body as {
      id: string;
    };
    const token = await served.agentToken(caller.id);
    const tool = async (body: Record<string, unknown>, component: string) => {
      const answer = await checked({ method: "POST", path: "/v1/tool", token, body }, "/v1/tool");
      // Beyond the union: the result is its own action's (or the envelope).
      expect(contract.componentErrors(component, answer.body), JSON.stringify(answer.body)).toEqual([]);
      return answer.body as { ok: boolean };
    };
    expect((await tool({ action: "relay_info", relay: "this" }, "RelayInfoResult")).ok).toBe(true);
    expect(
      (await tool({ action: "list_sessions", relay: "this", scope: "all" }, "ListSessionsResult")).ok,
    ).toBe(true);
    const sent = await tool(
      { action: "send", relay: "this", session: target.id, text: "!reply pong", wait_seconds: 20 },
      "SendResult",
    );
    expect(sent).toMatchObject({ ok: true, status: "done" });
    const refused = await tool(
      { action: "read_session", relay: "this", session: "no-such-session" },
      "ErrorEnvelope",
    );
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
  });

  it("POST /v1/tool: the read actions, schedules and questions, with the owner's side of each", async () => {
    const caller = (await call(served, owner("POST", "/v1/owner/sessions", { provider: "external" })))
      .body as {
      id: string;
    };
    const target = (await call(served, owner("POST", "/v1/owner/sessions", { title: "Other", text: "hi" })))
      .body as { id: string };
    await turnsEnded(served, target.id);
    const token = await served.agentToken(caller.id);
    const tool = async <T>(body: Record<string, unknown>, component: string): Promise<T> => {
      const answer = await checked({ method: "POST", path: "/v1/tool", token, body }, "/v1/tool");
      expect(contract.componentErrors(component, answer.body), JSON.stringify(answer.body)).toEqual([]);
      return answer.body as T;
    };
    const here = { relay: "this" };
    await tool({ action: "list_relays" }, "ListRelaysResult");
    await tool({ action: "usage", ...here }, "UsageResult");
    await tool({ action: "read_session", ...here, session: target.id }, "ReadSessionResult");
    await tool({ action: "wait", ...here, session: target.id, wait_seconds: 0 }, "WaitResult");
    await tool({ action: "stop", ...here, session: target.id }, "StopResult");
    await tool({ action: "list_subscriptions", ...here }, "ListSubscriptionsResult");
    const every = { ...here, session: target.id, every_minutes: 60, text: "!reply tick" };
    const first = await tool<{ schedule_id: string }>(
      { action: "schedule", ...every, title: "Hourly" },
      "ScheduleResult",
    );
    const second = await tool<{ schedule_id: string }>(
      { action: "schedule", ...every, title: "Also hourly" },
      "ScheduleResult",
    );
    await tool({ action: "list_schedules", ...here }, "ListSchedulesResult");
    await tool({ action: "unschedule", ...here, schedule_id: first.schedule_id }, "UnscheduleResult");
    await checked(
      owner("POST", `/v1/owner/schedules/${second.schedule_id}/cancel`),
      "/v1/owner/schedules/{id}/cancel",
    );
    const asked = await tool<{ question_id: string }>(
      { action: "ask", ...here, question: "Ship it?", options: ["yes", "no"] },
      "AskResult",
    );
    await tool({ action: "list_questions", ...here }, "ListQuestionsResult");
    await checked(owner("GET", "/v1/owner/inbox"), "/v1/owner/inbox");
    await checked(
      owner("POST", `/v1/owner/inbox/${asked.question_id}`, { choice: "yes" }),
      "/v1/owner/inbox/{id}",
    );
    const again = await tool<{ question_id: string }>(
      { action: "ask", ...here, question: "And now?" },
      "AskResult",
    );
    await tool({ action: "withdraw", ...here, question_id: again.question_id }, "WithdrawResult");
  });

  it("error envelopes: 401 without a token, 404 for an unknown id, 400 for a bad body", async () => {
    const unauthorized = await checked(
      { method: "GET", path: "/v1/owner/sessions" },
      "/v1/owner/sessions",
      401,
    );
    expect(unauthorized.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_AUTH" });
    const missing = await checked(
      owner("GET", "/v1/owner/sessions/no-such-session"),
      "/v1/owner/sessions/{id}",
      404,
    );
    expect(missing.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    const bad = await checked(
      owner("POST", "/v1/owner/sessions", { titel: "typo" }),
      "/v1/owner/sessions",
      400,
    );
    expect(bad.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
    const notJson = await call(served, { method: "POST", path: "/v1/owner/groups", token: OWNER_TOKEN });
    expect(contract.responseErrors({ method: "POST", path: "/v1/owner/groups" }, 400, notJson.body)).toEqual(
      [],
    );
    // A well-formed call without the cluster's secret: refused before it is read.
    const reap = { target: "proc-2", request: { op: "reap", instance: "proc-3" } };
    await checked({ method: "POST", path: "/v1/cluster", body: reap }, "/v1/cluster", 401);
  });

  it("the peer surface: /info, a call, and a replay of an unknown subscription (410)", async () => {
    const invite = (await call(served, owner("POST", "/v1/owner/peers/invites"))).body as { token: string };
    await checked({ method: "GET", path: "/v1/peer/info", token: invite.token }, "/v1/peer/info");
    const origin = {
      relay: "laptop",
      session: "ses_far",
      title: "Far",
      model: "m",
      hops: 0,
      userUnlocked: false,
    };
    const result = await checked(
      {
        method: "POST",
        path: "/v1/peer/tool",
        token: invite.token,
        body: { call: { action: "relay_info", relay: "this" }, origin },
      },
      "/v1/peer/tool",
    );
    expect(contract.componentErrors("RelayInfoResult", result.body), JSON.stringify(result.body)).toEqual([]);
    await checked(
      { method: "GET", path: "/v1/peer/subscriptions/sub_unknown/events", token: invite.token },
      "/v1/peer/subscriptions/{id}/events",
      410,
    );
  });

  it("MCP: GET /mcp is refused with a JSON-RPC error (405)", async () => {
    const { id } = (await call(served, owner("POST", "/v1/owner/sessions", { provider: "external" })))
      .body as {
      id: string;
    };
    await checked({ method: "GET", path: "/mcp", token: await served.agentToken(id) }, "/mcp", 405);
  });

  it("the owner's event stream: text/event-stream whose data is the documented event", async () => {
    const { id } = (await call(served, owner("POST", "/v1/owner/sessions", { text: "!reply streamed" })))
      .body as {
      id: string;
    };
    await turnsEnded(served, id);
    const response = await fetch(`${served.base}/v1/owner/events?from=start`, {
      headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    // The session's turn started and ended: at least those two rows, with what earlier tests left.
    const reader = new SseReader(response);
    await reader.until((r) => r.events.some((event) => event.event === "turn_end"));
    for (const event of reader.events) {
      const data = JSON.parse(event.data) as { kind: string };
      expect(data.kind).toBe(event.event);
      expect(contract.componentErrors("OutboxEvent", data)).toEqual([]);
    }
    await reader.close();
  });

  it("bites: the sessions list with a required field renamed refuses the same real response", async () => {
    const answer = await checked(owner("GET", "/v1/owner/sessions?scope=all"), "/v1/owner/sessions");
    expect((answer.body as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
    const wrong = structuredClone(document) as unknown as {
      components: {
        schemas: { SessionList: { properties: { sessions: { items: { required: string[] } } } } };
      };
    };
    const item = wrong.components.schemas.SessionList.properties.sessions.items;
    expect(item.required).toContain("watched");
    item.required = item.required.map((field) => (field === "watched" ? "isWatched" : field));
    const errors = new Contract(wrong as unknown as typeof document).responseErrors(
      { method: "GET", path: "/v1/owner/sessions" },
      200,
      answer.body,
    );
    expect(errors.join("\n")).toContain("isWatched");
  });
});
