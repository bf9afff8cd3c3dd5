import { describe, expect, it } from "vitest";
import {
  chatText,
  chatToolCall,
  FAKE_CHAT_COMPLETION_TOKENS,
  FAKE_CHAT_PROMPT_TOKENS,
} from "../../src/testing";
import { apiChatTestbed, startTurn } from "./api-chat-testbed";

describe("grok/deepseek usage: one report per turn, all its steps, priced per model", () => {
  it("adds up the tokens of every model call and prices them from the relay's table (grok-4.7: $3 in, $15 out per MTok)", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(
      chatToolCall(
        "relay_tool",
        { action: "relay_info" },
        { usage: { promptTokens: 1_000, completionTokens: 40 } },
      ),
      chatText("Done.", { usage: { promptTokens: 1_200, completionTokens: 60 } }),
    );
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Go" });
    await turn.outcome;

    expect(turn.io.usages).toHaveLength(1);
    const [usage] = turn.io.usages;
    expect(usage).toMatchObject({ inputTokens: 2_200, outputTokens: 100 });
    expect(usage?.costUsd).toBeCloseTo((2_200 * 3 + 100 * 15) / 1_000_000, 12);
  });

  it("the entry's prices override the relay's", async () => {
    const bed = await apiChatTestbed({
      entry: { prices: { "grok-4.7": { inputPerMTok: 1, outputPerMTok: 2 } } },
    });
    bed.fake.enqueue(chatText("Hi."));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Go" });
    await turn.outcome;
    expect(turn.io.usages[0]?.costUsd).toBeCloseTo(
      (FAKE_CHAT_PROMPT_TOKENS * 1 + FAKE_CHAT_COMPLETION_TOKENS * 2) / 1_000_000,
      12,
    );
  });

  it("prices DeepSeek's models ($0.28 in, $0.42 out per MTok)", async () => {
    const bed = await apiChatTestbed({ id: "deepseek" });
    bed.fake.enqueue(chatText("Hi."));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Go", model: "deepseek-chat" });
    await turn.outcome;
    expect(turn.io.usages[0]?.costUsd).toBeCloseTo(
      (FAKE_CHAT_PROMPT_TOKENS * 0.28 + FAKE_CHAT_COMPLETION_TOKENS * 0.42) / 1_000_000,
      12,
    );
  });

  it("a model with no price reports its tokens only", async () => {
    const bed = await apiChatTestbed({ entry: { models: ["grok-5"] } });
    bed.fake.enqueue(chatText("Hi."));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Go", model: "grok-5" });
    await turn.outcome;
    expect(turn.io.usages).toEqual([
      { inputTokens: FAKE_CHAT_PROMPT_TOKENS, outputTokens: FAKE_CHAT_COMPLETION_TOKENS },
    ]);
  });

  it("a turn ended by the step bound still reports what its calls used", async () => {
    const bed = await apiChatTestbed({ source: { maxSteps: 2 } });
    bed.fake.enqueue(
      chatToolCall("relay_tool", { action: "relay_info" }),
      chatToolCall("relay_tool", { action: "relay_info" }),
    );
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Go" });
    expect((await turn.outcome).status).toBe("error");
    expect(turn.io.usages).toMatchObject([
      { inputTokens: 2 * FAKE_CHAT_PROMPT_TOKENS, outputTokens: 2 * FAKE_CHAT_COMPLETION_TOKENS },
    ]);
  });
});
