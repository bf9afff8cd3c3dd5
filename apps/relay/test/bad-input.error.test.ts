import type { GroupListItem, OwnerSessionDetail, OwnerSessionView } from "@oar/engine";
import { LIMITS, LONE_SURROGATE_REASON, NUL_CHARACTER_REASON, type OwnerSettings } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestRelay, OWNER_TOKEN, type TestRelay } from "./harness";

// Issue 8 item 2 (DESIGN §7): bad input is refused with REMOTE_RELAY_INVALID_INPUT naming the
// field, on every surface, and changes nothing; it never reaches the database as a bug.

const NUL = "\u0000";
const nul = (field: string) => `${field}: ${NUL_CHARACTER_REASON}`;
const NESTING = `is nested more than ${LIMITS.nestingMax} levels deep; the relay reads at most ${LIMITS.nestingMax} levels of objects and lists`;

type Json = Record<string, unknown>;

/** `levels` objects one inside the other, as raw JSON: JSON.stringify itself cannot write 5,000. */
function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

/** A request with a raw JSON body, as a client that is not this harness would send it. */
function raw(t: TestRelay, request: { method: string; path: string; token: string; body: string }) {
  return t.relay.app.request(request.path, {
    method: request.method,
    headers: { Authorization: `Bearer ${request.token}`, "Content-Type": "application/json" },
    body: request.body,
  });
}

/** The answer of /v1/tool (keep-alive spaces dropped) with its status. */
async function toolAnswer(response: Response): Promise<{ status: number; body: Json }> {
  return { status: response.status, body: JSON.parse((await response.text()).trim()) as Json };
}

async function answer(response: Response): Promise<{ status: number; body: Json }> {
  return { status: response.status, body: (await response.json()) as Json };
}

const refusedOnAgentSurface = (error: string) => ({
  status: 200,
  body: expect.objectContaining({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT", error }),
});
const refusedOnOwnerSurface = (error: string) => ({
  status: 400,
  body: { ok: false, code: "REMOTE_RELAY_INVALID_INPUT", error },
});

async function allSessions(t: TestRelay): Promise<OwnerSessionView[]> {
  return (await t.ownerJson<{ sessions: OwnerSessionView[] }>("GET", "/v1/owner/sessions?scope=all"))
    .sessions;
}

function detail(t: TestRelay, id: string): Promise<OwnerSessionDetail> {
  return t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
}

/** A relay whose agent calls run without approval cards, a calling session and a target session. */
async function agentSetup() {
  const t = await createTestRelay({ overrides: { approvalCards: false } });
  const caller = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "Lead" });
  const target = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "Target" });
  return { t, token: await t.agentToken(caller.id), target: target.id };
}

describe("NUL characters on the agent surface (issue 8, DESIGN §7)", { timeout: 60_000 }, () => {
  it("POST /v1/tool: each string argument the issue names is refused (HTTP 200, ok:false) naming it, and nothing changes", async () => {
    const { t, token, target } = await agentSetup();
    const before = await detail(t, target);
    const calls: Array<[Json, string]> = [
      [{ action: "send", relay: "this", session: target, text: `x${NUL}y` }, "text"],
      [{ action: "create_session", relay: "this", text: `x${NUL}y` }, "text"],
      [{ action: "create_session", relay: "this", text: "go", title: `t${NUL}` }, "title"],
      [{ action: "update_session", relay: "this", session: target, title: `t${NUL}` }, "title"],
      [{ action: "update_session", relay: "this", session: target, group: `g${NUL}` }, "group"],
      [{ action: "read_session", relay: "this", session: `${target}${NUL}` }, "session"],
      [{ action: "answer_question", relay: "this", question_id: `q${NUL}`, answer: "yes" }, "question_id"],
      [{ action: "subscribe", sessions: [target, `x${NUL}`] }, "sessions[1]"],
      [{ action: "list_sessions", relay: "this", [`n${NUL}`]: 1 }, `the call: the name "n\\u0000"`],
    ];
    for (const [call, field] of calls) {
      const expected = field.startsWith("the call") ? `${field} ${NUL_CHARACTER_REASON}` : nul(field);
      expect(await toolAnswer(await t.tool(token, call)), JSON.stringify(call)).toEqual(
        refusedOnAgentSurface(expected),
      );
    }
    // create_session with a NUL in its text used to leave a session with no message behind.
    expect((await allSessions(t)).map((session) => session.id).sort()).toHaveLength(2);
    const after = await detail(t, target);
    expect([after.title, after.group, after.messages.length, after.turns.length]).toEqual([
      before.title,
      before.group,
      0,
      0,
    ]);
    expect((await t.ownerJson<{ groups: GroupListItem[] }>("GET", "/v1/owner/groups")).groups).toEqual([]);
  });

  it("POST /mcp: create_session with a NUL in its text is an isError result with the same refusal; no session is created", async () => {
    const { t, token } = await agentSetup();
    const response = await t.relay.app.request("/mcp", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "relay_tool",
          arguments: { action: "create_session", relay: "this", text: `x${NUL}y` },
        },
      }),
    });
    expect(response.status).toBe(200);
    const data = (await response.text()).split("\n").find((line) => line.startsWith("data: "));
    const message = JSON.parse(data?.slice("data: ".length) ?? "null") as {
      result: { isError: boolean; structuredContent: Json };
    };
    expect(message.result.isError).toBe(true);
    expect(message.result.structuredContent).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: nul("text"),
    });
    expect(await allSessions(t)).toHaveLength(2);
  });
});

describe("NUL characters in owner bodies: 400, naming the field, nothing changed (issue 8)", {
  timeout: 60_000,
}, () => {
  it("sessions and messages", async () => {
    const t = await createTestRelay();
    const session = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "Keep" });
    const cases: Array<[string, string, Json, string]> = [
      ["POST", "/v1/owner/sessions", { title: "t", text: `a${NUL}b` }, "text"],
      ["POST", "/v1/owner/sessions", { title: `t${NUL}` }, "title"],
      ["POST", "/v1/owner/sessions", { cwd: `/tmp/${NUL}` }, "cwd"],
      ["POST", "/v1/owner/sessions", { group: `g${NUL}` }, "group"],
      ["POST", `/v1/owner/sessions/${session.id}/messages`, { text: `a${NUL}b` }, "text"],
      ["PATCH", `/v1/owner/sessions/${session.id}`, { title: `t${NUL}` }, "title"],
      ["PATCH", `/v1/owner/sessions/${session.id}`, { group: `g${NUL}` }, "group"],
      ["PATCH", `/v1/owner/sessions/${session.id}`, { model: `m${NUL}` }, "model"],
    ];
    for (const [method, path, body, field] of cases) {
      expect(await answer(await t.owner(method, path, body)), `${method} ${path} ${field}`).toEqual(
        refusedOnOwnerSurface(nul(field)),
      );
    }
    // The session created with a NUL in its first message used to stay behind.
    expect((await allSessions(t)).map((view) => view.id)).toEqual([session.id]);
    const after = await detail(t, session.id);
    expect([after.title, after.group, after.model, after.messages.length]).toEqual([
      "Keep",
      session.group,
      session.model,
      0,
    ]);
  });

  it("groups, cards and peers", async () => {
    const t = await createTestRelay();
    const group = await t.ownerJson<{ id: string; name: string }>("POST", "/v1/owner/groups", {
      name: "Release",
    });
    const cases: Array<[string, string, Json, string]> = [
      ["POST", "/v1/owner/groups", { name: `g${NUL}` }, "name"],
      ["POST", "/v1/owner/groups", { name: "g", sessions: ["a", `b${NUL}`] }, "sessions[1]"],
      ["PATCH", `/v1/owner/groups/${group.id}`, { name: `g${NUL}` }, "name"],
      ["POST", "/v1/owner/cards/card_x", { answer: `a${NUL}` }, "answer"],
      ["POST", "/v1/owner/peers", { name: "box", url: "http://127.0.0.1:9", token: `t${NUL}` }, "token"],
      ["PATCH", "/v1/owner/peers/box", { token: `t${NUL}` }, "token"],
    ];
    for (const [method, path, body, field] of cases) {
      expect(await answer(await t.owner(method, path, body)), `${method} ${path} ${field}`).toEqual(
        refusedOnOwnerSurface(nul(field)),
      );
    }
    const { groups } = await t.ownerJson<{ groups: GroupListItem[] }>("GET", "/v1/owner/groups");
    expect(groups.map((item) => [item.id, item.name])).toEqual([[group.id, "Release"]]);
    expect((await t.ownerJson<{ peers: unknown[] }>("GET", "/v1/owner/peers")).peers).toEqual([]);
  });

  it("settings, provider settings included (values and names)", async () => {
    const t = await createTestRelay();
    const before = await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings");
    const cases: Array<[Json, string]> = [
      [{ providers: { claude: { nested: { key: `v${NUL}` } } } }, nul("providers.claude.nested.key")],
      [
        { providers: { claude: { [`k${NUL}`]: 1 } } },
        `providers.claude: the name "k\\u0000" ${NUL_CHARACTER_REASON}`,
      ],
      [
        { providers: { [`c${NUL}`]: {} }, quietAfterMinutes: 5 },
        `providers: the name "c\\u0000" ${NUL_CHARACTER_REASON}`,
      ],
    ];
    for (const [body, error] of cases) {
      expect(await answer(await t.owner("PATCH", "/v1/owner/settings", body))).toEqual(
        refusedOnOwnerSurface(error),
      );
    }
    expect(await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings")).toEqual(before);
  });
});

describe("lone surrogates (JSON \\ud800): refused, never a database error nor a silent U+FFFD (issue 8)", {
  timeout: 60_000,
}, () => {
  it("a provider setting holding one is 400 naming it; the settings are unchanged", async () => {
    const t = await createTestRelay();
    const before = await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings");
    const response = await raw(t, {
      method: "PATCH",
      path: "/v1/owner/settings",
      token: OWNER_TOKEN,
      body: '{"providers":{"claude":{"key":"\\ud800"}}}',
    });
    expect(await answer(response)).toEqual(
      refusedOnOwnerSurface(`providers.claude.key: ${LONE_SURROGATE_REASON}`),
    );
    expect(await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings")).toEqual(before);
  });

  it("a session title or a prompt holding one is refused on both surfaces; no session is created", async () => {
    const { t, token } = await agentSetup();
    const owner = await raw(t, {
      method: "POST",
      path: "/v1/owner/sessions",
      token: OWNER_TOKEN,
      body: '{"title":"a\\ud800b"}',
    });
    expect(await answer(owner)).toEqual(refusedOnOwnerSurface(`title: ${LONE_SURROGATE_REASON}`));
    const agent = await raw(t, {
      method: "POST",
      path: "/v1/tool",
      token,
      body: '{"action":"create_session","relay":"this","text":"\\udc00 go"}',
    });
    expect(await toolAnswer(agent)).toEqual(refusedOnAgentSurface(`text: ${LONE_SURROGATE_REASON}`));
    expect(await allSessions(t)).toHaveLength(2);
  });
});

describe("%00 in path parameters and query strings: 400 naming the parameter (issue 8)", {
  timeout: 60_000,
}, () => {
  it("every owner route with an id or a name, and the list filters", async () => {
    const t = await createTestRelay();
    const session = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "Keep" });
    const group = await t.ownerJson<{ id: string }>("POST", "/v1/owner/groups", { name: "Release" });
    const bad = `${session.id}%00`;
    const cases: Array<[string, string, Json | undefined, string]> = [
      ["GET", `/v1/owner/sessions/${bad}`, undefined, "id"],
      ["DELETE", `/v1/owner/sessions/${bad}`, undefined, "id"],
      ["PATCH", `/v1/owner/sessions/${bad}`, { title: "x" }, "id"],
      ["POST", `/v1/owner/sessions/${bad}/messages`, { text: "hi" }, "id"],
      ["POST", `/v1/owner/sessions/${bad}/token`, undefined, "id"],
      ["POST", `/v1/owner/sessions/${bad}/archive`, undefined, "id"],
      ["POST", `/v1/owner/sessions/${bad}/kill`, undefined, "id"],
      ["DELETE", "/v1/owner/peers/invites/inv%00x", undefined, "id"],
      ["POST", "/v1/owner/cards/card%00x", { choice: "allow" }, "id"],
      ["PATCH", `/v1/owner/groups/${group.id}%00`, { name: "x" }, "id"],
      ["DELETE", `/v1/owner/groups/${group.id}%00`, undefined, "id"],
      ["PATCH", "/v1/owner/peers/box%00", { level: "read" }, "name"],
      ["DELETE", "/v1/owner/peers/box%00", undefined, "name"],
      ["GET", "/v1/owner/sessions?scope=all%00", undefined, "scope"],
      ["GET", "/v1/owner/cards?status=%00", undefined, "status"],
      ["GET", "/v1/owner/nothing%00here", undefined, "the path"],
    ];
    for (const [method, path, body, parameter] of cases) {
      expect(await answer(await t.owner(method, path, body)), `${method} ${path}`).toEqual(
        refusedOnOwnerSurface(nul(parameter)),
      );
    }
    const sessions = await allSessions(t);
    expect(sessions.map((view) => [view.id, view.title, view.archivedAt])).toEqual([
      [session.id, "Keep", null],
    ]);
    expect((await detail(t, session.id)).messages).toEqual([]);
    const { groups } = await t.ownerJson<{ groups: GroupListItem[] }>("GET", "/v1/owner/groups");
    expect(groups.map((item) => item.name)).toEqual(["Release"]);
  });

  it("a parameter name with a NUL is refused too", async () => {
    const t = await createTestRelay();
    expect(await answer(await t.owner("GET", "/v1/owner/sessions?sc%00ope=all"))).toEqual(
      refusedOnOwnerSurface(`query: the name "sc\\u0000ope" ${NUL_CHARACTER_REASON}`),
    );
  });
});

describe("nesting depth: refused past LIMITS.nestingMax, never a stack overflow (issue 8)", {
  timeout: 60_000,
}, () => {
  it("PATCH /v1/owner/settings with provider settings 5,000 levels deep is 400 naming providers; nothing is stored", async () => {
    const t = await createTestRelay();
    const before = await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings");
    const response = await raw(t, {
      method: "PATCH",
      path: "/v1/owner/settings",
      token: OWNER_TOKEN,
      body: `{"quietAfterMinutes":5,"providers":{"x":${deepJson(5000)}}}`,
    });
    expect(await answer(response)).toEqual(refusedOnOwnerSurface(`providers: ${NESTING}`));
    expect(await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings")).toEqual(before);
  });

  it("POST /v1/tool with an argument 5,000 levels deep is refused (HTTP 200, ok:false) naming it", async () => {
    const { t, token } = await agentSetup();
    const response = await raw(t, {
      method: "POST",
      path: "/v1/tool",
      token,
      body: `{"action":"list_sessions","relay":"this","deep":${deepJson(5000)}}`,
    });
    expect(await toolAnswer(response)).toEqual(refusedOnAgentSurface(`deep: ${NESTING}`));
  });

  it("an owner body of another route nested 5,000 deep is refused the same way", async () => {
    const t = await createTestRelay();
    const response = await raw(t, {
      method: "POST",
      path: "/v1/owner/sessions",
      token: OWNER_TOKEN,
      body: `{"title":"t","extra":${deepJson(5000)}}`,
    });
    expect(await answer(response)).toEqual(refusedOnOwnerSurface(`extra: ${NESTING}`));
    expect(await allSessions(t)).toEqual([]);
  });
});

describe("R-CALL-09 over /v1/tool: only null, '', false and [] are empty (issue 8)", {
  timeout: 60_000,
}, () => {
  it("list_sessions lists foo: {} and bar: {a: null} in ignored", async () => {
    const { t, token } = await agentSetup();
    const { body } = await toolAnswer(
      await t.tool(token, { action: "list_sessions", relay: "this", foo: {}, bar: { a: null }, baz: null }),
    );
    expect(body).toMatchObject({ ok: true, ignored: ["foo", "bar"] });
  });

  it("R-CALL-07: create_session with session: {} is refused and creates nothing", async () => {
    const { t, token } = await agentSetup();
    const { status, body } = await toolAnswer(
      await t.tool(token, { action: "create_session", relay: "this", text: "go", session: {} }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
    expect(body.error).toMatch(/^create_session does not take: session\. .* Nothing was created\.$/);
    expect(await allSessions(t)).toHaveLength(2);
  });
});
