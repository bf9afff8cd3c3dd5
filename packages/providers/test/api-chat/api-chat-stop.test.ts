import { describe, expect, it, vi } from "vitest";
import { chatHang, chatText, chatToolCall } from "../../src/testing";
import { apiChatTestbed, dialogueOf, startTurn } from "./api-chat-testbed";

/** Whether the promise has settled, after pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("grok/deepseek turns: stop and timeout", () => {
  it("a stop while the API hangs ends the turn stopped at once, with the text so far, which the conversation keeps", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatHang("Working on it"));
    const worker = bed.startWorker();
    const turn = startTurn(bed, worker, { prompt: "Go" });
    await bed.fake.hanging();
    await vi.waitFor(() => expect(turn.io.streamed.join("")).toBe("Working on it"), { interval: 5 });

    turn.io.controller.abort();
    // The server still holds the response open: the turn does not wait for it.
    expect(await turn.outcome).toEqual({ status: "stopped", reply: "Working on it" });
    expect(turn.io.usages).toEqual([]);

    bed.fake.enqueue(chatText("Going on."));
    expect(await startTurn(bed, worker, { prompt: "Go on" }).outcome).toEqual({
      status: "done",
      reply: "Going on.",
    });
    expect(dialogueOf(bed.fake.chatRequests[1])).toEqual([
      "user: Go",
      "assistant: Working on it",
      "user: Go on",
    ]);
  });

  it("a stop before the model said anything keeps the prompt alone", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatHang());
    const worker = bed.startWorker();
    const turn = startTurn(bed, worker, { prompt: "Go" });
    await bed.fake.hanging();
    turn.io.controller.abort();
    expect(await turn.outcome).toEqual({ status: "stopped" });
    expect(turn.io.savedStates.at(-1)).toEqual({ turns: [[{ role: "user", content: "Go" }]] });
  });

  it("a stop while relay_tool runs ends the turn at once; the call is kept with a result saying it was cut short", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatToolCall("relay_tool", { action: "wait", session: "ses_x" }, { text: "Waiting." }));
    const worker = bed.startWorker();
    const turn = startTurn(bed, worker, { prompt: "Wait for it" }, () => new Promise(() => undefined));
    await vi.waitFor(() => expect(turn.io.toolCalls).toHaveLength(1), { interval: 5 });

    turn.io.controller.abort();
    expect(await turn.outcome).toEqual({ status: "stopped", reply: "Waiting." });
    // A step counts its tokens when it finishes, after its calls' results: this one never did.
    expect(turn.io.usages).toEqual([]);
    bed.fake.enqueue(chatText("OK."));
    await startTurn(bed, worker, { prompt: "Next" }).outcome;
    expect(dialogueOf(bed.fake.chatRequests[1])).toEqual([
      "user: Wait for it",
      'assistant: Waiting. [relay_tool {"action":"wait","session":"ses_x"}]',
      "tool(call_fake_1): The turn was stopped before relay_tool answered; the call may or may not have run.",
      "user: Next",
    ]);
  });

  it("close() stops a running turn", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatHang("Half"));
    const worker = bed.startWorker();
    const turn = startTurn(bed, worker, { prompt: "Go" });
    await bed.fake.hanging();
    await worker.close();
    expect(await turn.outcome).toMatchObject({ status: "stopped" });
    expect(await startTurn(bed, worker, { prompt: "Again" }).outcome).toEqual({
      status: "error",
      error: "The worker of provider grok was closed.",
    });
  });

  it("an API that hangs past timeoutSeconds (600 by default) of the relay's clock ends the turn error, with the text so far", async () => {
    const bed = await apiChatTestbed();
    bed.fake.enqueue(chatHang("Thinking"));
    const turn = startTurn(bed, bed.startWorker(), { prompt: "Go" });
    await bed.fake.hanging();
    await vi.waitFor(() => expect(turn.io.streamed.join("")).toBe("Thinking"), { interval: 5 });

    bed.clock.advance(599_999);
    expect(await settled(turn.outcome)).toBe(false);
    bed.clock.advance(1);
    expect(await turn.outcome).toEqual({
      status: "error",
      error: "Grok's API kept the turn waiting longer than its timeout (600 s): the turn was ended.",
      reply: "Thinking",
    });
  });

  it("the time relay_tool takes does not count: the model has its whole timeout again after each result", async () => {
    const bed = await apiChatTestbed({ source: { timeoutSeconds: 30 } });
    bed.fake.enqueue(chatToolCall("relay_tool", { action: "wait" }), chatHang());
    let answer: (value: unknown) => void = () => undefined;
    const turn = startTurn(
      bed,
      bed.startWorker(),
      { prompt: "Go" },
      () => new Promise((resolve) => (answer = resolve)),
    );
    await vi.waitFor(() => expect(turn.io.toolCalls).toHaveLength(1), { interval: 5 });

    bed.clock.advance(3_600_000);
    expect(await settled(turn.outcome)).toBe(false);
    answer({ ok: true });
    await bed.fake.hanging();
    bed.clock.advance(29_999);
    expect(await settled(turn.outcome)).toBe(false);
    bed.clock.advance(1);
    expect(await turn.outcome).toEqual({
      status: "error",
      error: "Grok's API kept the turn waiting longer than its timeout (30 s): the turn was ended.",
    });
  });
});
