import type { JsonValue } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { chatHistoryJson, readChatHistory } from "../../src/api-chat/api-chat-history";
import { chatError, chatText, chatToolCall } from "../../src/testing";
import { apiChatTestbed, chatBodyOf, dialogueOf, startTurn } from "./api-chat-testbed";

describe("grok/deepseek conversation: kept as the session's provider state", () => {
  it("the second turn sends the first turn's prompt, tool call, tool result and reply", async () => {
    const bed = await apiChatTestbed();
    const worker = bed.startWorker();
    bed.fake.enqueue(chatToolCall("relay_tool", { action: "list_sessions" }), chatText("Nobody else."));
    await startTurn(bed, worker, { prompt: "Who is here?" }, () => ({ ok: true, sessions: [] })).outcome;
    bed.fake.enqueue(chatText("Still nobody."));
    await startTurn(bed, worker, { prompt: "And now?" }).outcome;

    expect(dialogueOf(bed.fake.chatRequests[2])).toEqual([
      "user: Who is here?",
      'assistant:  [relay_tool {"action":"list_sessions"}]',
      'tool(call_fake_1): {"ok":true,"sessions":[]}',
      "assistant: Nobody else.",
      "user: And now?",
    ]);
  });

  it("saves the conversation after each turn as JSON, and a new worker (a restarted relay) goes on from it", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatText("First answer."));
    const first = startTurn(bed, bed.startWorker(), { prompt: "First" });
    await first.outcome;
    const [state] = first.io.savedStates;
    expect(state).toEqual({
      turns: [
        [
          { role: "user", content: "First" },
          { role: "assistant", content: [{ type: "text", text: "First answer." }] },
        ],
      ],
    });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);

    bed.fake.enqueue(chatText("Second answer."));
    const second = startTurn(bed, bed.startWorker(state), { prompt: "Second" });
    expect(await second.outcome).toEqual({ status: "done", reply: "Second answer." });
    expect(dialogueOf(bed.fake.chatRequests[1])).toEqual([
      "user: First",
      "assistant: First answer.",
      "user: Second",
    ]);
    expect((second.io.savedStates[0] as { turns: unknown[] }).turns).toHaveLength(2);
  });

  it("starts afresh, without throwing, from a state it did not write or that is damaged", async () => {
    const bad: JsonValue[] = [
      "garbage",
      42,
      [],
      { claudeSessionId: "c1" },
      { turns: "x" },
      { turns: [[]] },
      { turns: [[{ role: "assistant", content: "no prompt first" }]] },
      {
        turns: [
          [
            { role: "user", content: "ok" },
            { role: "robot", content: "?" },
          ],
        ],
      },
      { turns: [[{ role: "user", content: 42 }]] },
    ];
    for (const state of bad) {
      expect(readChatHistory(state)).toEqual([]);
    }
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatText("Fresh."));
    await startTurn(bed, bed.startWorker({ turns: [[{ role: "robot" }]] }), { prompt: "Hi" }).outcome;
    expect(dialogueOf(bed.fake.chatRequests[0])).toEqual(["user: Hi"]);
  });

  it("a prompt the API refused outright leaves the conversation as it was", async () => {
    const bed = await apiChatTestbed();
    const worker = bed.startWorker();
    bed.fake.enqueue(chatText("One."), chatError(429, "Rate limit reached"), chatText("Two."));
    await startTurn(bed, worker, { prompt: "A" }).outcome;
    const refused = startTurn(bed, worker, { prompt: "B" });
    expect(await refused.outcome).toEqual({
      status: "error",
      error: "Grok's API refused the request (429): Rate limit reached",
    });
    await startTurn(bed, worker, { prompt: "C" }).outcome;
    expect(dialogueOf(bed.fake.chatRequests[2])).toEqual(["user: A", "assistant: One.", "user: C"]);
  });

  it("keeps no reasoning: DeepSeek's reasoner thinks aloud, the reply and later turns leave it out", async () => {
    const bed = await apiChatTestbed({ id: "deepseek" });
    const worker = bed.startWorker();
    bed.fake.enqueue(chatText("42.", { reasoning: "Six times seven." }), chatText("Yes."));
    const first = startTurn(bed, worker, { prompt: "6*7?", model: "deepseek-reasoner" });
    expect(await first.outcome).toEqual({ status: "done", reply: "42." });
    expect(first.io.streamed.join("")).toBe("42.");
    await startTurn(bed, worker, { prompt: "Sure?", model: "deepseek-reasoner" }).outcome;
    expect(JSON.stringify(chatBodyOf(bed.fake.chatRequests[1]))).not.toContain("Six times seven");
    expect(JSON.stringify(chatHistoryJson([[{ role: "user", content: "x" }]]))).toBe(
      '{"turns":[[{"role":"user","content":"x"}]]}',
    );
  });
});

// ~50,000 tokens at four characters a token: three such prompts overflow DeepSeek's 128,000.
const BIG = "x".repeat(200_000);

async function bigTurns(
  bed: Awaited<ReturnType<typeof apiChatTestbed>>,
  model: string,
  settings: Record<string, JsonValue>,
) {
  const worker = bed.startWorker();
  const outcomes = [];
  for (const name of ["one", "two", "three"]) {
    bed.fake.enqueue(chatText(`ok ${name}`));
    outcomes.push(await startTurn(bed, worker, { prompt: `${name} ${BIG}`, model, settings }).outcome);
  }
  return { worker, outcomes };
}

/** The prompts a request sent, by their first word. */
const promptsOf = (bed: Awaited<ReturnType<typeof apiChatTestbed>>, index: number) =>
  chatBodyOf(bed.fake.chatRequests[index])
    .messages.filter((message) => message.role === "user")
    .map((message) => String(message.content).split(" ")[0]);

describe("grok/deepseek window: the oldest whole turns are dropped to keep within it", () => {
  it('DeepSeek "auto" (or none) is 128,000 tokens: the third big turn drops the first, and the reply says so', async () => {
    const bed = await apiChatTestbed({ id: "deepseek" });
    const { worker, outcomes } = await bigTurns(bed, "deepseek-chat", { auto_compact_window: "auto" });
    expect(outcomes.slice(0, 2)).toEqual([
      { status: "done", reply: "ok one" },
      { status: "done", reply: "ok two" },
    ]);
    expect(outcomes[2]).toEqual({
      status: "done",
      reply:
        "⚠️ 1 earlier turn was dropped from this conversation to keep it within its window of 128,000 tokens.\nok three",
    });
    expect(promptsOf(bed, 2)).toEqual(["two", "three"]);

    // Dropped from what is kept too: a larger window later does not bring it back.
    bed.fake.enqueue(chatText("ok four"));
    await startTurn(bed, worker, {
      prompt: "four",
      model: "deepseek-chat",
      settings: { auto_compact_window: 0 },
    }).outcome;
    expect(promptsOf(bed, 3)).toEqual(["two", "three", "four"]);
  });

  it("DeepSeek 0 is 400,000 tokens: nothing dropped; a number is that many tokens", async () => {
    const wide = await apiChatTestbed({ id: "deepseek" });
    const { outcomes } = await bigTurns(wide, "deepseek-chat", { auto_compact_window: 0 });
    expect(outcomes[2]).toEqual({ status: "done", reply: "ok three" });
    expect(promptsOf(wide, 2)).toEqual(["one", "two", "three"]);

    const narrow = await apiChatTestbed({ id: "deepseek" });
    const result = await bigTurns(narrow, "deepseek-chat", { auto_compact_window: 60_000 });
    expect(result.outcomes[1]).toMatchObject({
      reply: expect.stringMatching(/^⚠️ 1 earlier turn was dropped .* 60,000 tokens\./),
    });
    expect(result.outcomes[2]).toMatchObject({
      reply:
        "⚠️ 1 earlier turn was dropped from this conversation to keep it within its window of 60,000 tokens.\nok three",
    });
    expect(promptsOf(narrow, 2)).toEqual(["three"]);
  });

  it("Grok's window is its default, 256,000 tokens, whatever the session sets", async () => {
    const bed = await apiChatTestbed();
    const worker = bed.startWorker();
    // ~100,000 tokens each: the third overflows 256,000.
    const huge = "y".repeat(400_000);
    const outcomes = [];
    for (const name of ["one", "two", "three"]) {
      bed.fake.enqueue(chatText(`ok ${name}`));
      outcomes.push(
        await startTurn(bed, worker, {
          prompt: `${name} ${huge}`,
          settings: { auto_compact_window: 10_000_000 },
        }).outcome,
      );
    }
    expect(outcomes[1]).toEqual({ status: "done", reply: "ok two" });
    expect(outcomes[2]).toEqual({
      status: "done",
      reply:
        "⚠️ 1 earlier turn was dropped from this conversation to keep it within its window of 256,000 tokens.\nok three",
    });
    expect(promptsOf(bed, 2)).toEqual(["two", "three"]);
  });
});
