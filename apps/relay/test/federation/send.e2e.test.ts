import { describe, expect, it } from "vitest";
import {
  call,
  createNetwork,
  externalCaller,
  ownerSession,
  pair,
  session,
  settled,
  type ToolResult,
  tool,
  toolResults,
} from "./network";

const HEADER =
  '[Remote prompt from an agent on relay "desk" · session "Lead" · script-1 · acting for the user]';

/** The result lines of the last reply of a settled session. */
async function lastResults(t: Parameters<typeof settled>[0], id: string, turns = 1): Promise<ToolResult[]> {
  const detail = await settled(t, id, turns);
  expect(detail.turns.at(-1)?.status).toBe("done");
  return toolResults(detail.messages.at(-1)?.text);
}

describe("a prompt from desk's agent to a session on build-box, end to end over HTTP (§6, DESIGN §4/§5)", {
  timeout: 60_000,
}, () => {
  it("R-HOP-03, R-UI-05, R-LOCK-01(b): the reply comes back done under A's name for B; B sees the header and the ↗ from provenance, and has desk open", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    await pair(box, desk);
    const deploy = await ownerSession(box, "Deploy");

    const lead = await ownerSession(
      desk,
      "Lead",
      [
        "Deploy on build-box, please.",
        tool({
          action: "send",
          relay: "build-box",
          session: deploy,
          text: "!reply deployed",
          wait_seconds: 30,
        }),
      ].join("\n"),
    );
    const [sent] = await lastResults(desk, lead);
    expect(sent).toMatchObject({
      ok: true,
      relay: "build-box",
      session: deploy,
      status: "done",
      reply: { text: "deployed" },
    });
    expect(String(sent?.summary)).toMatch(/^send → build-box session /);

    const detail = await settled(box, deploy);
    expect(detail.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", `${HEADER}\n!reply deployed`],
      ["assistant", "deployed"],
    ]);
    expect(detail.messages[0]?.provenance).toEqual({
      relay: "desk",
      session: lead,
      title: "Lead",
      model: "script-1",
      hops: 1,
      userUnlocked: true,
    });
    // The same provenance as read_session shows it to an agent on B (R-UI-05).
    const other = await ownerSession(box, "Reader");
    const read = await call(box, await box.agentToken(other), {
      action: "read_session",
      relay: "this",
      session: deploy,
    });
    expect(read).toMatchObject({
      ok: true,
      messages: [
        { role: "user", from: `relay "desk" · session "Lead" (${lead}) · script-1` },
        { role: "assistant" },
      ],
    });

    // R-LOCK-01(b): desk is open in B's conversation (not in B's other ones), so its agent can answer back.
    const deployToken = await box.agentToken(deploy);
    expect(await call(box, deployToken, { action: "list_relays" })).toMatchObject({
      relays: [
        { name: "build-box", self: true },
        { name: "desk", unlocked: true },
      ],
    });
    expect(await call(box, await box.agentToken(other), { action: "list_relays" })).toMatchObject({
      relays: [
        { name: "build-box", self: true },
        { name: "desk", unlocked: false },
      ],
    });
  });

  it("R-LOCK-01(b): B's agent answers back on desk with read_session in the turn desk's prompt started", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    await pair(box, desk);
    const deploy = await ownerSession(box, "Deploy");
    const lead = await ownerSession(desk, "Lead", "Hello from the owner.");
    await settled(desk, lead);

    const back = tool({ action: "read_session", relay: "desk", session: lead, last: 5 });
    await desk.ownerJson("POST", `/v1/owner/sessions/${lead}/messages`, {
      text: [
        "Ask build-box to read this conversation.",
        tool({ action: "send", relay: "build-box", session: deploy, text: back, wait_seconds: 30 }),
      ].join("\n"),
    });
    const [sent] = await lastResults(desk, lead, 2);
    expect(sent).toMatchObject({ ok: true, relay: "build-box", status: "done" });

    // B's reply: the echo of the header line, then its read_session result on desk.
    const reply = String((sent?.reply as { text?: string } | undefined)?.text);
    expect(reply.split("\n")[0]).toBe(`echo: ${HEADER}`);
    const [readBack] = toolResults(reply);
    expect(readBack).toMatchObject({ ok: true, relay: "desk", session: lead });
    expect(JSON.stringify(readBack)).toContain("Hello from the owner.");
  });

  it("R-PAIR-02: a one-way pairing is enough to prompt; B's agent cannot answer until B pairs desk, and then desk is open there", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const deploy = await ownerSession(box, "Deploy");
    const back = tool({ action: "relay_info", relay: "desk" });
    const lead = await ownerSession(
      desk,
      "Lead",
      [
        "On build-box:",
        tool({ action: "send", relay: "build-box", session: deploy, text: back, wait_seconds: 30 }),
      ].join("\n"),
    );
    const [sent] = await lastResults(desk, lead);
    expect(sent).toMatchObject({ ok: true, status: "done" });
    const [refused] = toolResults(String((sent?.reply as { text?: string } | undefined)?.text));
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });

    // The unlock was kept under the name desk gave, ready for a pairing made later.
    await pair(box, desk);
    const token = await box.agentToken(deploy);
    expect(await call(box, token, { action: "list_relays" })).toMatchObject({
      relays: [{ name: "build-box" }, { name: "desk", unlocked: true }],
    });
    expect(await call(box, token, { action: "relay_info", relay: "desk" })).toMatchObject({
      ok: true,
      relay: "desk",
    });
    expect((await session(box, deploy)).messages[0]?.text.startsWith(HEADER)).toBe(true);
  });

  it("R-ANS-01, R-HOP-05, GAP-03: at Read and prompt, desk's agent answers the question card a build-box session waits on, then waits for its reply", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box, { level: "prompt" });
    const deploy = await ownerSession(box, "Deploy");
    const caller = await externalCaller(desk, { title: "Lead", mentions: "Deploy on build-box." });

    const sent = await call(desk, caller.token, {
      action: "send",
      relay: "build-box",
      session: deploy,
      text: "!ask Deploy to production? | yes | no\n!reply over",
      wait_seconds: 30,
    });
    expect(sent).toMatchObject({
      ok: true,
      relay: "build-box",
      status: "waiting",
      pendingQuestions: [{ kind: "ask_user", text: "Deploy to production?", options: ["yes", "no"] }],
    });
    // The question card shows on build-box too (R-HOP-05).
    const [card] = (
      await box.ownerJson<{ cards: Record<string, unknown>[] }>("GET", "/v1/owner/cards?status=pending")
    ).cards;
    expect(card).toMatchObject({ kind: "question", sessionId: deploy, text: "Deploy to production?" });

    const questionId = String((sent.pendingQuestions as { question_id: string }[])[0]?.question_id);
    expect(
      await call(desk, caller.token, {
        action: "answer_question",
        relay: "build-box",
        question_id: questionId,
        choices: ["yes"],
      }),
    ).toMatchObject({ ok: true, relay: "build-box", question_id: questionId, choices: ["yes"] });
    expect(
      await call(desk, caller.token, {
        action: "wait",
        relay: "build-box",
        session: deploy,
        wait_seconds: 30,
      }),
    ).toMatchObject({ ok: true, status: "done", reply: { text: "over\nanswer: yes" } });
  });
});
