import type { OwnerCard, OwnerSessionDetail } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { createTestRelay, eventually, type TestRelay } from "../harness";

/** The session once its last turn has ended and the runtime has settled it (`idle`). */
function settled(t: TestRelay, id: string): Promise<OwnerSessionDetail> {
  return eventually(async () => {
    const session = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
    const last = session.turns.at(-1);
    const ended = last && last.status !== "queued" && last.status !== "running";
    return ended && session.state === "idle" ? session : undefined;
  }, 20_000);
}

/** The JSON result lines a script reply carries, one per `!tool` (DESIGN §5). */
function toolResults(reply: string | undefined): Record<string, unknown>[] {
  return (reply ?? "")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a script agent drives another session through relay_tool (DESIGN §5 !tool)", {
  timeout: 60_000,
}, () => {
  it("creates a session, prompts it, and reads its reply; the owner sees it all", async () => {
    const t = await createTestRelay();
    const tool = (call: object) => `!tool ${JSON.stringify(call)}`;

    // 1. The owner starts A; A's agent creates B with a first prompt and waits for the reply.
    const lead = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
      title: "Lead",
      text: tool({
        action: "create_session",
        relay: "this",
        title: "Pinger",
        text: "!reply pong",
        wait_seconds: 30,
      }),
    });
    // R-UI-01(a): A's first create_session waits on an approval card; the owner allows it.
    const card = await eventually(async () => {
      const { cards } = await t.ownerJson<{ cards: OwnerCard[] }>("GET", "/v1/owner/cards?status=pending");
      return cards[0];
    });
    expect(card).toMatchObject({ kind: "approval", reason: "first_create_session", sessionId: lead.id });
    await t.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
    const first = await settled(t, lead.id);
    expect(first.turns.at(-1)?.status).toBe("done");
    const [created] = toolResults(first.messages.at(-1)?.text);
    expect(created).toMatchObject({ ok: true, status: "done", reply: { text: "pong" } });
    const pinger = String(created?.session);

    // R-UI-03/04: B carries the via-agent badge and sits in a group under A.
    const b = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${pinger}`);
    expect(b).toMatchObject({
      title: "Pinger",
      viaAgentBadge: 'via agent · "Lead"',
      createdBy: { session: lead.id },
    });
    expect(b.group).not.toBeNull();

    // 2. The owner asks A to prompt B again and read B's conversation.
    await t.ownerJson("POST", `/v1/owner/sessions/${lead.id}/messages`, {
      text: [
        tool({ action: "send", relay: "this", session: pinger, text: "!reply pong again", wait_seconds: 30 }),
        tool({ action: "read_session", relay: "this", session: pinger }),
      ].join("\n"),
    });
    const second = await settled(t, lead.id);
    const [sent, read] = toolResults(second.messages.at(-1)?.text);
    expect(sent).toMatchObject({ ok: true, status: "done", reply: { text: "pong again" } });
    expect(read).toMatchObject({ ok: true });
    expect(JSON.stringify(read)).toContain("pong again");

    // 3. The owner reads B's reply through the owner API, with the ↗ from provenance (R-UI-05).
    const after = await settled(t, pinger);
    expect(after.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "!reply pong"],
      ["assistant", "pong"],
      ["user", "!reply pong again"],
      ["assistant", "pong again"],
    ]);
    expect(after.messages[2]?.provenance).toMatchObject({ session: lead.id, title: "Lead" });
  });
});
