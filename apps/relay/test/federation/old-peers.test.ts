import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createTestRelay, type TestRelay } from "../harness";
import {
  bearer,
  call,
  externalCaller,
  invite,
  ownerSession,
  serveOnLoopback,
  type ToolResult,
} from "./network";

// R-RTO-08, R-BILL-05, R-CGRP-07(d), R-UPD-28, R-QCHK-06, R-PAIR-05 (DESIGN §4 `features`), over
// real sockets: a paired relay that does not list a call's feature never receives the call.

/** An OAR 0.9.11 relay: its GET /v1/peer/info lists no feature; every POST /v1/peer/tool is counted and answered ok. */
async function oldRelay() {
  const toolCalls: string[] = [];
  const app = new Hono();
  app.get("/v1/peer/info", (c) => c.json({ name: "old-box", version: "0.9.11", features: [] }));
  app.post("/v1/peer/tool", async (c) => {
    const { call: forwarded } = await c.req.json<{ call: { action: string } }>();
    toolCalls.push(forwarded.action);
    return c.json({
      ok: true,
      relay: "old-box",
      summary: `${forwarded.action} → old-box`,
      ignored: [],
      ...(forwarded.action === "list_sessions" ? { sessions: [] } : {}),
    });
  });
  return { url: await serveOnLoopback(app.fetch), toolCalls };
}

async function pairAt(desk: TestRelay, name: string, url: string, token: string): Promise<void> {
  await desk.ownerJson("POST", "/v1/owner/peers", { name, url, token });
}

/** The call's result, or a refusal saying it was still waiting (on a card) after `ms`. */
function within(result: Promise<ToolResult>, ms = 5_000): Promise<ToolResult> {
  return Promise.race([
    result,
    new Promise<ToolResult>((resolve) =>
      setTimeout(() => resolve({ ok: false, code: "STILL_WAITING", error: `no answer within ${ms} ms` }), ms),
    ),
  ]);
}

/** Each gated call, with what its refusal says the target lacks. */
const GATED: readonly (readonly [Record<string, unknown>, string])[] = [
  [{ action: "read_task_output", session: "ses_1", task_id: "b7k2" }, "read_task_output"],
  [
    { action: "send", session: "ses_1", text: "go on", provider: "claude-api", wait_seconds: 0 },
    "switching billing with send",
  ],
  [
    { action: "create_session", text: "Run the checklist.", group: "Release 2.4", wait_seconds: 0 },
    "groups on create_session",
  ],
  [{ action: "update_session", session: "ses_1", title: "Renamed" }, "update_session"],
  [
    { action: "ask", session: "ses_1", question: "Ship tonight?" },
    "non-blocking questions about its sessions",
  ],
  [{ action: "list_questions" }, "non-blocking questions about its sessions"],
  [{ action: "withdraw", question_id: "ask_1" }, "non-blocking questions about its sessions"],
  [{ action: "subscribe", sessions: ["ses_1"] }, "subscriptions"],
  [{ action: "unsubscribe", subscription_id: "all" }, "subscriptions"],
  [{ action: "list_subscriptions" }, "subscriptions"],
  [{ action: "transfer_subscriptions", from: "ses_1" }, "subscriptions"],
];

describe("a paired relay too old for a call, over HTTP (DESIGN §4 features)", { timeout: 120_000 }, () => {
  it("R-RTO-08, R-BILL-05, R-CGRP-07(d), R-UPD-28, R-QCHK-06, R-PAIR-05: each gated call to a 0.9.11 relay listing no feature is REMOTE_RELAY_UNSUPPORTED and never reaches /v1/peer/tool; list_sessions still does", async () => {
    const old = await oldRelay();
    const desk = await createTestRelay({ name: "desk" });
    await pairAt(desk, "old-box", old.url, "oar_invite_old");
    const caller = await externalCaller(desk, { title: "Lead", mentions: "Work on old-box." });

    const outcomes: Record<string, unknown>[] = [];
    for (const [input] of GATED) {
      const result = await within(call(desk, caller.token, { relay: "old-box", ...input }));
      outcomes.push({ action: input.action, code: result.code, error: result.error });
    }
    expect(outcomes).toEqual(
      GATED.map(([input, what]) => ({
        action: input.action,
        code: "REMOTE_RELAY_UNSUPPORTED",
        error: expect.stringMatching(
          new RegExp(
            `^The target relay doesn't support ${what} yet: relay "old-box" \\(version 0\\.9\\.11\\) does not list "[a-z_]+" among its features .*Nothing was sent there\\.`,
          ),
        ),
      })),
    );
    expect(old.toolCalls).toEqual([]);
    // Nothing asks the owner for a call that was refused.
    expect(await desk.ownerJson("GET", "/v1/owner/cards?status=pending")).toEqual({ cards: [] });

    expect(await call(desk, caller.token, { action: "list_sessions", relay: "old-box" })).toMatchObject({
      ok: true,
      relay: "old-box",
    });
    expect(old.toolCalls).toEqual(["list_sessions"]);
  });

  it("DESIGN §4: this relay lists every feature, so a paired relay of this version gets the gated calls", async () => {
    const box = await createTestRelay({ name: "build-box" });
    const info = await bearer(box, "GET", "/v1/peer/info", await invite(box));
    expect(((await info.json()) as { features: string[] }).features).toEqual(
      expect.arrayContaining([
        "read_task_output",
        "billing_switch",
        "create_session_group",
        "update_session",
        "session_questions",
        "subscriptions",
      ]),
    );

    const toolCalls: string[] = [];
    const boxUrl = await serveOnLoopback(async (request) => {
      if (new URL(request.url).pathname === "/v1/peer/tool") {
        toolCalls.push(request.method);
      }
      return box.relay.app.fetch(request);
    });
    const desk = await createTestRelay({ name: "desk" });
    await pairAt(desk, "build-box", boxUrl, await invite(box));
    const deploy = await ownerSession(box, "Deploy");
    const caller = await externalCaller(desk, { title: "Lead", mentions: "Work on build-box." });
    // build-box's own answer: the task is not there (R-RTO-07).
    expect(
      await call(desk, caller.token, {
        action: "read_task_output",
        relay: "build-box",
        session: deploy,
        task_id: "nope",
      }),
    ).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    expect(
      await call(desk, caller.token, { action: "list_subscriptions", relay: "build-box" }),
    ).toMatchObject({
      ok: true,
      relay: "build-box",
    });
    expect(toolCalls).toHaveLength(2);
  });
});
