import type { GroupListItem, OwnerCard, OwnerSessionDetail, OwnerSessionView } from "@oar/engine";
import type { OwnerSettings } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestRelay, eventually } from "./harness";

/** The session once its turns have ended and the runtime has settled it (`idle`). */
async function replyOf(t: Awaited<ReturnType<typeof createTestRelay>>, id: string) {
  return eventually(async () => {
    const session = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
    const ended = session.turns.every((turn) => turn.status !== "queued" && turn.status !== "running");
    return session.turns.length > 0 && ended && session.state === "idle" ? session : undefined;
  });
}

describe("owner surface, happy paths (DESIGN §4 /v1/owner)", { timeout: 30_000 }, () => {
  it("creates a script session whose text is its first message, and reads the reply", async () => {
    const t = await createTestRelay();
    const created = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
      title: "Echo",
      text: "hello relay",
    });
    expect(created).toMatchObject({ title: "Echo", provider: "script", model: "script-1", mode: "agent" });
    // The text is the first message; a script turn may already have answered when the view is read.
    expect(created.messages[0]).toMatchObject({ role: "user", text: "hello relay" });
    const done = await replyOf(t, created.id);
    expect(done.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "hello relay"],
      ["assistant", "echo: hello relay"],
    ]);
    const { sessions } = await t.ownerJson<{ sessions: OwnerSessionView[] }>("GET", "/v1/owner/sessions");
    expect(sessions.map((s) => [s.id, s.messageCount, s.viaAgentBadge, s.watched, s.watching])).toEqual([
      [created.id, 2, null, false, 0],
    ]);
  });

  it("posts a message, patches, archives, kills and deletes", async () => {
    const t = await createTestRelay();
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const posted = await t.ownerJson<{ message: { text: string }; turn: { status: string } }>(
      "POST",
      `/v1/owner/sessions/${id}/messages`,
      { text: "!reply pong" },
    );
    expect(posted.message.text).toBe("!reply pong");
    expect((await replyOf(t, id)).messages.at(-1)?.text).toBe("pong");

    const patched = await t.ownerJson<OwnerSessionDetail>("PATCH", `/v1/owner/sessions/${id}`, {
      title: "Renamed",
      model: "script-2",
      mode: "plan",
      mayCreateSessions: true,
    });
    expect(patched).toMatchObject({
      title: "Renamed",
      model: "script-2",
      mode: "plan",
      mayCreateSessions: true,
    });
    const archived = await t.ownerJson<{ archivedAt: number | null }>(
      "POST",
      `/v1/owner/sessions/${id}/archive`,
    );
    expect(archived.archivedAt).toEqual(expect.any(Number));
    expect(
      (await t.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions?scope=archived")).sessions,
    ).toHaveLength(1);
    expect(await t.ownerJson("POST", `/v1/owner/sessions/${id}/kill`)).toEqual({ ok: true });
    expect(await t.ownerJson("DELETE", `/v1/owner/sessions/${id}`)).toEqual({ ok: true });
    expect((await t.owner("GET", `/v1/owner/sessions/${id}`)).status).toBe(404);
  });

  it("reads and patches settings", async () => {
    const t = await createTestRelay();
    const settings = await t.ownerJson<OwnerSettings>("GET", "/v1/owner/settings");
    expect(settings.agentSessions).toEqual({ enabled: true, longestWaitSeconds: 600 });
    const patched = await t.ownerJson<OwnerSettings>("PATCH", "/v1/owner/settings", {
      agentSessions: { longestWaitSeconds: 120 },
      maxTurnSeconds: 600,
    });
    expect(patched).toMatchObject({
      agentSessions: { enabled: true, longestWaitSeconds: 120 },
      maxTurnSeconds: 600,
    });
    expect(await t.ownerJson("GET", "/v1/owner/settings")).toEqual(patched);
  });

  it("creates, lists (empty ones too), renames and dissolves groups", async () => {
    const t = await createTestRelay();
    const { id: sessionId } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const group = await t.ownerJson<GroupListItem>("POST", "/v1/owner/groups", {
      name: "Release 2.4",
      sessions: [sessionId],
    });
    expect(group).toMatchObject({ name: "Release 2.4", createdByAgent: false, headSessionId: sessionId });
    const empty = await t.ownerJson<GroupListItem>("POST", "/v1/owner/groups", { name: "Later" });
    const listed = await t.ownerJson<{ groups: GroupListItem[] }>("GET", "/v1/owner/groups");
    expect(listed.groups.map((g) => [g.name, g.memberCount]).sort()).toEqual([
      ["Later", 0],
      ["Release 2.4", 1],
    ]);
    expect(
      (await t.ownerJson<GroupListItem>("PATCH", `/v1/owner/groups/${empty.id}`, { name: "Soon" })).name,
    ).toBe("Soon");
    expect(await t.ownerJson("DELETE", `/v1/owner/groups/${group.id}`)).toEqual({ ok: true });
    const after = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${sessionId}`);
    expect(after.group).toBeNull();
    const created = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { group: "soon" });
    expect(created.group).toEqual({ id: empty.id, role: "member" });
  });

  it("lists a blocking question card and answers it (R-RSES-02)", async () => {
    const t = await createTestRelay();
    const { id } = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
      text: "!ask Ship it? | Yes | No",
    });
    const card = await eventually(async () => {
      const { cards } = await t.ownerJson<{ cards: OwnerCard[] }>("GET", "/v1/owner/cards?status=pending");
      return cards[0];
    });
    expect(card).toMatchObject({ kind: "question", sessionId: id, text: "Ship it?", options: ["Yes", "No"] });
    const detail = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
    expect(detail.pendingQuestions).toEqual([expect.objectContaining({ id: card.id, kind: "ask_user" })]);
    const answered = await t.ownerJson<OwnerCard>("POST", `/v1/owner/cards/${card.id}`, { choices: ["Yes"] });
    expect(answered.status).toBe("answered");
    const done = await replyOf(t, id);
    expect(done.messages.at(-1)?.text).toContain("answer: Yes");
    expect((await t.ownerJson<{ cards: unknown[] }>("GET", "/v1/owner/cards?status=pending")).cards).toEqual(
      [],
    );
    expect(
      (await t.ownerJson<{ cards: unknown[] }>("GET", "/v1/owner/cards?status=answered")).cards,
    ).toHaveLength(1);
    expect((await t.ownerJson<{ cards: unknown[] }>("GET", "/v1/owner/cards?status=allowed")).cards).toEqual(
      [],
    );
  });
});

describe("owner surface without a body (DESIGN §4)", { timeout: 30_000 }, () => {
  it("POST /sessions with no body starts a session with every default", async () => {
    const t = await createTestRelay();
    const response = await t.relay.app.request("/v1/owner/sessions", {
      method: "POST",
      headers: { Authorization: "Bearer owner-token-for-tests-0123456789" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      provider: "script",
      model: "script-1",
      title: "New session",
    });
    const noText = await t.owner("POST", `/v1/owner/sessions/${"ses_x"}/messages`);
    expect(noText.status).toBe(400);
    expect(await noText.json()).toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringMatching(/^text: /),
    });
  });
});
