import { describe, expect, it } from "vitest";
import { createRelayLogger } from "../src/logging/relay-logger";
import { createTestRelay, eventually, OWNER_TOKEN } from "./harness";

const PROMPT = "the-prompt-text-Zq81 that no info line may carry";
const API_KEY = "sk-ant-api-key-Kd92-never-logged";

/** A relay whose log (at info, as a relay starts by default) is kept, one parsed JSON line each. */
async function loggedRelay() {
  const lines: string[] = [];
  const logger = createRelayLogger(
    { logLevel: "info", name: "desk" },
    { pretty: false, destination: { write: (line: string) => lines.push(line) } },
  );
  const t = await createTestRelay({ overrides: { logger, approvalCards: false } });
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { t, lines, entries };
}

describe("what the relay logs at info, and what it never does (DESIGN §10)", { timeout: 30_000 }, () => {
  it("each request, turn and relay_tool call once, with ids and timing; no token, key or prompt text", async () => {
    const { t, lines, entries } = await loggedRelay();
    const created = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
      title: "Echo",
      text: PROMPT,
    });
    await t.ownerJson("PATCH", "/v1/owner/settings", { providers: { "claude-api": { apiKey: API_KEY } } });
    const caller = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { provider: "external" });
    const agentToken = await t.agentToken(caller.id);
    const response = await t.relay.app.request("/v1/tool", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${agentToken}`,
        "Content-Type": "application/json",
        "X-Request-Id": "call-from-test-1",
      },
      body: JSON.stringify({
        action: "send",
        relay: "this",
        session: created.id,
        text: PROMPT,
        wait_seconds: 10,
      }),
    });
    expect(response.headers.get("x-request-id")).toBe("call-from-test-1");
    expect(await response.json()).toMatchObject({ ok: true, status: "done" });
    await eventually(async () =>
      entries().filter((e) => e.msg === "turn ended").length === 2 ? true : undefined,
    );

    const text = lines.join("");
    for (const secret of [OWNER_TOKEN, agentToken, API_KEY, PROMPT, "Zq81"]) {
      expect(text, secret).not.toContain(secret);
    }
    const all = entries();
    expect(all.every((e) => typeof e.level === "number" && e.level >= 30)).toBe(true);

    const requests = all.filter((e) => e.msg === "http request");
    const call = requests.find((e) => e.requestId === "call-from-test-1");
    expect(call).toMatchObject({ level: 30, method: "POST", path: "/v1/tool", status: 200 });
    expect(typeof call?.durationMs).toBe("number");
    // One line per request: the session's creation, the settings, the caller, its token, the call.
    expect(requests.map((e) => `${e.method} ${e.path}`)).toEqual([
      "POST /v1/owner/sessions",
      "PATCH /v1/owner/settings",
      "POST /v1/owner/sessions",
      `POST /v1/owner/sessions/${caller.id}/token`,
      "POST /v1/tool",
    ]);
    expect(new Set(requests.map((e) => e.requestId)).size).toBe(requests.length);

    const turns = all.filter((e) => e.msg === "turn ended");
    expect(turns).toEqual([
      expect.objectContaining({
        session: created.id,
        provider: "script",
        status: "done",
        turn: expect.any(String),
      }),
      expect.objectContaining({
        session: created.id,
        provider: "script",
        status: "done",
        turn: expect.any(String),
      }),
    ]);
    expect(turns.every((e) => typeof e.durationMs === "number")).toBe(true);

    const calls = all.filter((e) => e.msg === "relay_tool call");
    expect(calls).toEqual([
      expect.objectContaining({
        call: expect.stringMatching(/^call_/),
        session: caller.id,
        action: "send",
        status: "ok",
        durationMs: expect.any(Number),
      }),
    ]);
  });

  it("a refused call is logged with its error code, and a 401 as any request", async () => {
    const { t, entries } = await loggedRelay();
    const caller = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { provider: "external" });
    const refused = await t.tool(await t.agentToken(caller.id), {
      action: "read_session",
      relay: "this",
      session: "ses_none",
    });
    expect(await refused.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    const anonymous = await t.relay.app.request("/v1/owner/sessions");
    expect(anonymous.status).toBe(401);
    const all = entries();
    expect(all.filter((e) => e.msg === "relay_tool call")).toEqual([
      expect.objectContaining({
        action: "read_session",
        status: "REMOTE_RELAY_NOT_FOUND",
        session: caller.id,
      }),
    ]);
    expect(all.filter((e) => e.msg === "http request").at(-1)).toMatchObject({
      level: 30,
      method: "GET",
      path: "/v1/owner/sessions",
      status: 401,
    });
  });
});
