import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OwnerCard, OwnerSessionDetail } from "@oar/engine";
import { describe, expect, it, onTestFinished } from "vitest";
import { createTestRelay, eventually, type TestRelay } from "../harness";

type ToolResult = Record<string, unknown> & {
  readonly pendingQuestions?: readonly { question_id: string; kind: string }[];
};

/** The relay on a real port: agents call it over HTTP as an outside client would. */
async function listen(t: TestRelay) {
  const server = serve({ fetch: t.relay.app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** POST /v1/tool as the session holding `token` (DESIGN §4 agent surface). */
    async tool(token: string, call: object): Promise<ToolResult> {
      const response = await fetch(`${base}/v1/tool`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(call),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as ToolResult;
    },
  };
}

/** The session once its last turn has ended and the runtime has settled it (`idle`). */
function settled(t: TestRelay, id: string): Promise<OwnerSessionDetail> {
  return eventually(async () => {
    const session = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
    const last = session.turns.at(-1);
    const ended = last && last.status !== "queued" && last.status !== "running";
    return ended && session.state === "idle" ? session : undefined;
  }, 20_000);
}

async function ownerSession(t: TestRelay, body: object): Promise<{ id: string; token: string }> {
  const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", body);
  return { id, token: await t.agentToken(id) };
}

describe("answer_question end to end: A asks with !ask, B answers, A goes on (§20, DESIGN §5)", {
  timeout: 60_000,
}, () => {
  it("R-RSES-02, R-ANS-01/04/05/06 over POST /v1/tool", async () => {
    const t = await createTestRelay();
    const http = await listen(t);
    // A (script provider) raises a blocking question card; its turn waits on it.
    const a = await ownerSession(t, { title: "Merger", text: "!ask Merge now? | Merge | Wait" });
    const b = await ownerSession(t, { title: "Reviewer" });

    // B reads A and finds the card (R-RSES-02: kind ask_user).
    const read = await eventually(async () => {
      const result = await http.tool(b.token, { action: "read_session", relay: "this", session: a.id });
      return result.pendingQuestions?.length ? result : undefined;
    });
    expect(read.pendingQuestions).toEqual([
      {
        question_id: expect.stringMatching(/^q_/),
        kind: "ask_user",
        text: "Merge now?",
        options: ["Merge", "Wait"],
        askedAt: expect.any(String),
      },
    ]);
    const questionId = read.pendingQuestions?.[0]?.question_id ?? "";

    // Refusals, none of which answers anything: A's own question (R-ANS-04), a non-blocking
    // question (R-ANS-05), an approval card (R-ANS-04), an option the card does not offer.
    const answer = (token: string, args: object) =>
      http.tool(token, { action: "answer_question", relay: "this", ...args });
    expect(await answer(a.token, { question_id: questionId, choices: ["Merge"] })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_FORBIDDEN",
    });
    expect(await answer(b.token, { question_id: "ask_7d2abc000000", choices: ["Merge"] })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_FORBIDDEN",
    });
    expect(await answer(b.token, { question_id: "card_7d2abc000000", answer: "allow" })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_FORBIDDEN",
    });
    expect(await answer(b.token, { question_id: questionId, choices: ["Later"] })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining("Merge, Wait"),
    });

    // B answers (R-ANS-06).
    expect(await answer(b.token, { question_id: questionId, choices: ["Merge"] })).toEqual({
      ok: true,
      relay: "desk",
      summary: `answer_question → desk session ${a.id.slice(4, 12)}: answered`,
      session: a.id,
      question_id: questionId,
      choices: ["Merge"],
    });

    // A's turn goes on: its reply carries the answer (DESIGN §5 !ask).
    const after = await settled(t, a.id);
    expect(after.turns.at(-1)?.status).toBe("done");
    expect(after.messages.at(-1)?.text).toContain("answer: Merge");
    expect(after.pendingQuestions).toEqual([]);

    // The owner sees the card answered; a second answer is stale.
    const { cards } = await t.ownerJson<{ cards: OwnerCard[] }>("GET", "/v1/owner/cards?status=answered");
    expect(cards.map((card) => card.id)).toEqual([questionId]);
    expect(await answer(b.token, { question_id: questionId, choices: ["Wait"] })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining("no longer pending (answered)"),
    });
  });

  it("GAP-10 over MCP: send reports `waiting` with the card, answer_question, then wait returns the reply", async () => {
    const t = await createTestRelay();
    const http = await listen(t);
    const a = await ownerSession(t, { title: "Shipper" });
    const b = await ownerSession(t, { title: "Lead" });
    const client = new Client({ name: "answer-question-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${b.token}` } },
      }),
    );
    onTestFinished(() => client.close());
    const call = async (args: Record<string, unknown>): Promise<ToolResult> => {
      const result = await client.callTool({ name: "relay_tool", arguments: args });
      return result.structuredContent as ToolResult;
    };

    const sent = await call({
      action: "send",
      relay: "this",
      session: a.id,
      text: "!ask Ship it tonight? | Tonight | Tomorrow",
      wait_seconds: 30,
    });
    expect(sent).toMatchObject({
      ok: true,
      status: "waiting",
      pendingQuestions: [expect.objectContaining({ kind: "ask_user", text: "Ship it tonight?" })],
    });
    const questionId = sent.pendingQuestions?.[0]?.question_id ?? "";

    expect(
      await call({ action: "answer_question", relay: "this", question_id: questionId, answer: "Tomorrow" }),
    ).toMatchObject({ ok: true, session: a.id, question_id: questionId, answer: "Tomorrow" });

    const waited = await call({
      action: "wait",
      relay: "this",
      session: a.id,
      message_id: sent.message_id,
      wait_seconds: 30,
    });
    expect(waited).toMatchObject({ ok: true, status: "done" });
    expect(JSON.stringify(waited.reply)).toContain("answer: Tomorrow");
  });
});
