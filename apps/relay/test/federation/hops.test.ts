import { describe, expect, it } from "vitest";
import type { TestRelay } from "../harness";
import {
  call,
  createNetwork,
  ownerSession,
  pair,
  settled,
  type ToolResult,
  tool,
  toolResults,
} from "./network";

/** desk ↔ build-box ↔ ci, each relay paired with the next and the previous one. */
async function chain() {
  const net = createNetwork();
  const [desk, box, ci] = await Promise.all([net.relay("desk"), net.relay("build-box"), net.relay("ci")]);
  await Promise.all([pair(desk, box), pair(box, desk), pair(box, ci), pair(ci, box)]);
  return { net, desk, box, ci };
}

function replyOf(result: ToolResult | undefined): string {
  return String((result?.reply as { text?: string } | undefined)?.text);
}

/** desk's owner starts Lead, naming build-box, whose agent sends `text` to build-box's `builder`. */
function askBuildBox(desk: TestRelay, builder: string, text: string): Promise<string> {
  return ownerSession(
    desk,
    "Lead",
    [
      "Ask build-box.",
      tool({ action: "send", relay: "build-box", session: builder, text, wait_seconds: 30 }),
    ].join("\n"),
  );
}

describe("a prompt crosses at most two relays unless the user unlocked the third (§6) over HTTP", {
  timeout: 60_000,
}, () => {
  it("R-HOP-01/02/03: desk → build-box → ci runs; ci's agent prompting build-box (opened only by its agent) is REMOTE_RELAY_HOP_LIMIT, reading and waiting there still work", async () => {
    const { net, desk, box, ci } = await chain();
    const checks = await ownerSession(ci, "Checks");
    // build-box's owner names ci in Builder: the second crossing is the user's own unlock there.
    const builder = await ownerSession(box, "Builder", "Works with ci.");
    await settled(box, builder);

    const onCi = [
      tool({ action: "send", relay: "build-box", session: builder, text: "!reply loop", wait_seconds: 0 }),
      tool({ action: "read_session", relay: "build-box", session: builder, last: 2 }),
      tool({ action: "wait", relay: "build-box", session: builder, wait_seconds: 0 }),
    ].join("\n");
    const onBox = tool({ action: "send", relay: "ci", session: checks, text: onCi, wait_seconds: 30 });
    const lead = await askBuildBox(desk, builder, onBox);

    const deskReply = await settled(desk, lead);
    const [first] = toolResults(deskReply.messages.at(-1)?.text);
    expect(first).toMatchObject({ ok: true, relay: "build-box", status: "done" });
    const [second] = toolResults(replyOf(first));
    expect(second).toMatchObject({ ok: true, relay: "ci", status: "done" });

    // On ci: the prompt came from build-box with two crossings behind it (R-HOP-03 header).
    const onCiDetail = await settled(ci, checks);
    const prompt = onCiDetail.messages[0];
    expect(prompt?.text.split("\n")[0]).toBe(
      '[Remote prompt from an agent on relay "build-box" · session "Builder" · script-1 · acting for the user]',
    );
    expect(prompt?.provenance).toMatchObject({
      relay: "build-box",
      session: builder,
      hops: 2,
      userUnlocked: true,
    });
    const [third, read, waited] = toolResults(onCiDetail.messages.at(-1)?.text);
    expect(third).toMatchObject({ ok: false, code: "REMOTE_RELAY_HOP_LIMIT" });
    expect(String(third?.error)).toContain("already crossed 2 relays");
    expect(String(third?.error)).toContain('relay "build-box"');
    expect(read).toMatchObject({ ok: true, relay: "build-box", session: builder });
    expect(waited).toMatchObject({ ok: true, relay: "build-box", session: builder });
    // The refused send never left ci.
    expect(
      net.exchanges.filter((e) => e.from === "ci" && e.body?.call.action === "send").map((e) => e.host),
    ).toEqual([]);

    // build-box is open in Checks because its agent wrote there (R-LOCK-01(b)), not by the user.
    expect(await call(ci, await ci.agentToken(checks), { action: "list_relays" })).toMatchObject({
      relays: [
        { name: "ci", self: true },
        { name: "build-box", unlocked: true },
      ],
    });
    // Builder got desk's prompt with one crossing, and no third prompt.
    const builderDetail = await settled(box, builder, 2);
    expect(
      builderDetail.messages.filter((m) => m.role === "user").map((m) => m.provenance?.hops ?? 0),
    ).toEqual([0, 1]);
  });

  it("R-HOP-01: the third crossing goes through when ci's owner unlocked build-box personally", async () => {
    const { desk, box, ci } = await chain();
    const checks = await ownerSession(ci, "Checks", "Report to build-box when asked.");
    await settled(ci, checks);
    const builder = await ownerSession(box, "Builder", "Works with ci.");
    const inbox = await ownerSession(box, "Inbox");
    await settled(box, builder);

    const onCi = tool({
      action: "send",
      relay: "build-box",
      session: inbox,
      text: "!reply noted",
      wait_seconds: 30,
    });
    const onBox = tool({ action: "send", relay: "ci", session: checks, text: onCi, wait_seconds: 30 });
    const lead = await askBuildBox(desk, builder, onBox);
    const [first] = toolResults((await settled(desk, lead)).messages.at(-1)?.text);
    const [second] = toolResults(replyOf(first));
    const [third] = toolResults(replyOf(second));
    expect(third).toMatchObject({ ok: true, relay: "build-box", status: "done", reply: { text: "noted" } });
    const inboxDetail = await settled(box, inbox);
    expect(inboxDetail.messages[0]?.provenance).toMatchObject({
      relay: "ci",
      session: checks,
      hops: 3,
      userUnlocked: true,
    });
  });
});
