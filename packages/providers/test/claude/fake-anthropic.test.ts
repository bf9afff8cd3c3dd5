import { describe, expect, it, onTestFinished } from "vitest";
import { error, hang, startFakeAnthropic, text, toolUse, UNSCRIPTED_REPLY } from "../../src/testing";

async function started() {
  const fake = await startFakeAnthropic();
  onTestFinished(() => fake.close());
  return fake;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** The `data:` payloads of a server-sent event stream. */
async function events(response: Response): Promise<{ type: string; [key: string]: unknown }[]> {
  const body = await response.text();
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)));
}

describe("the fake Anthropic Messages API", () => {
  it("streams scripted replies in order: text, then a tool call that stops for the tool", async () => {
    const fake = await started();
    fake.enqueue(text("Hi there"), toolUse("Bash", { command: "ls" }));
    const url = `${fake.url}/v1/messages?beta=true`;

    const first = await events(await post(url, { model: "m1", stream: true, messages: [] }));
    const second = await events(await post(url, { model: "m1", stream: true, messages: [] }));

    expect(first.map((e) => e.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(
      first
        .flatMap((e) => ((e.delta as { text?: string })?.text ? [(e.delta as { text: string }).text] : []))
        .join(""),
    ).toBe("Hi there");
    expect(second.find((e) => e.type === "message_delta")).toMatchObject({
      delta: { stop_reason: "tool_use" },
    });
    const json = second
      .flatMap((e) => ((e.delta as { partial_json?: string })?.partial_json ?? "") || [])
      .join("");
    expect(JSON.parse(json)).toEqual({ command: "ls" });
    expect(fake.messageRequests.map((r) => r.body)).toEqual([
      { model: "m1", stream: true, messages: [] },
      { model: "m1", stream: true, messages: [] },
    ]);
  });

  it("answers errors with the API's error body, side calls with a whole message, and records the rest", async () => {
    const fake = await started();
    fake.enqueue(error(529, "overloaded_error", "Overloaded"));

    const refused = await post(`${fake.url}/v1/messages`, { model: "m1", stream: true });
    const side = await post(`${fake.url}/v1/messages`, { model: "m1", messages: [] });
    const unscripted = await events(await post(`${fake.url}/v1/messages`, { model: "m1", stream: true }));
    const count = await post(`${fake.url}/v1/messages/count_tokens`, { model: "m1" });
    const unknown = await fetch(`${fake.url}/v1/files`);

    expect(refused.status).toBe(529);
    expect(await refused.json()).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
    expect(await side.json()).toMatchObject({
      type: "message",
      content: [{ type: "text", text: UNSCRIPTED_REPLY }],
    });
    expect(unscripted.some((e) => (e.delta as { text?: string })?.text !== undefined)).toBe(true);
    expect(fake.unscripted).toHaveLength(1);
    expect(await count.json()).toEqual({ input_tokens: 100 });
    expect(unknown.status).toBe(404);
    expect(fake.unknown.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/files"]);
  });

  it("keeps a hanging reply open until the server closes", async () => {
    const fake = await startFakeAnthropic();
    fake.enqueue(hang());
    const response = await post(`${fake.url}/v1/messages`, { model: "m1", stream: true });
    await fake.hanging();

    const body = response.text().then(
      () => "ended",
      () => "cut off",
    );
    await fake.close();

    expect(await body).toBe("cut off");
  });
});
