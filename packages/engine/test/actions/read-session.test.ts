import { ReadSessionResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createHarness, refusal, settle } from "./harness";

describe("read_session (§12)", () => {
  it("R-RSES-01/04: the last N messages (default 20), state, inFlight, pendingQuestions, tasks", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    for (let i = 1; i <= 12; i++) {
      await h.ok({ action: "send", relay: "this", session: target.id, text: `p${i}` });
    }
    const all = ReadSessionResultSchema.parse(
      await h.ok({ action: "read_session", relay: "this", session: target.id }),
    );
    expect(all.messages).toHaveLength(20);
    expect(all.messages.at(-1)).toMatchObject({ role: "assistant", text: "echo: p12" });
    expect(all).toMatchObject({
      state: "idle",
      inFlight: null,
      pendingQuestions: [],
      tasks: [],
      title: "Owner session 2",
    });
    const last = await h.ok({ action: "read_session", relay: "this", session: target.id, last: 3 });
    expect((last.messages as { text: string }[]).map((m) => m.text)).toEqual([
      "echo: p11",
      "p12",
      "echo: p12",
    ]);
    expect(last.summary).toMatch(/^read_session → desk session \w{8}: 3 messages$/);
  });

  it("R-UI-05: a prompt from an agent names the sender in `from`", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.ok({ action: "send", relay: "this", session: target.id, text: "hello" });
    const result = await h.ok({ action: "read_session", relay: "this", session: target.id });
    expect((result.messages as unknown[])[0]).toMatchObject({
      role: "user",
      text: "hello",
      from: `relay "desk" · session "Planner" (${h.caller.id}) · test-1`,
    });
  });

  it("R-RSES-01: a reply still being written is `inFlight` with its prompt's message_id", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    const sent = await h.sendHeld(target.id);
    const turn = await h.provider.nextTurn();
    turn.write("half a rep");
    const result = await h.ok({ action: "read_session", relay: "this", session: target.id });
    expect(result).toMatchObject({
      state: "running_turn",
      inFlight: { text: "half a rep", message_id: sent.message_id },
    });
  });

  it("R-RSES-02: a blocking question is pending with kind ask_user", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.ok({
      action: "send",
      relay: "this",
      session: target.id,
      text: "ask: Merge now? | Merge | Wait",
      wait_seconds: 0,
    });
    await settle();
    const result = ReadSessionResultSchema.parse(
      await h.ok({ action: "read_session", relay: "this", session: target.id }),
    );
    expect(result.pendingQuestions).toEqual([
      {
        question_id: expect.stringMatching(/^q_/),
        kind: "ask_user",
        text: "Merge now?",
        options: ["Merge", "Wait"],
        askedAt: "2026-01-01T00:00:00.000Z",
      },
    ]);
  });

  it("R-RSES-03: group adds the other members (id, title, role, state, archived), at most 50", async () => {
    const h = await createHarness();
    const group = await h.stores.groups.createGroup({
      id: "grp_big",
      name: "Big",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    const members = [];
    for (let i = 0; i < 52; i++) {
      const session = await h.ownerSession();
      await h.stores.groups.setSessionGroup({
        sessionId: session.id,
        groupId: group.id,
        role: i === 0 ? "head" : "member",
        at: h.clock.now(),
      });
      members.push(session);
    }
    const [first, second] = members;
    await h.stores.sessions.archiveSession({ id: second?.id ?? "", at: h.clock.now() });
    const result = ReadSessionResultSchema.parse(
      await h.ok({ action: "read_session", relay: "this", session: first?.id }),
    );
    expect(result.group).toMatchObject({ id: "grp_big", name: "Big", role: "head" });
    expect(result.group?.members).toHaveLength(50);
    expect(result.group?.members.some((m) => m.id === first?.id)).toBe(false);
    expect(result.group?.members).toContainEqual({
      id: second?.id,
      title: second?.title,
      role: "member",
      state: "idle",
      archived: true,
    });
  });

  it("R-RSES-06: mayCreateSessions shows when the owner's switch is on; archived sessions can be read", async () => {
    const h = await createHarness();
    const target = await h.ownerSession({ mayCreateSessions: true });
    await h.stores.sessions.archiveSession({ id: target.id, at: h.clock.now() });
    const result = await h.ok({ action: "read_session", relay: "this", session: target.id });
    expect(result).toMatchObject({ mayCreateSessions: true, archived: true });
  });

  it("a conversation may read itself", async () => {
    const h = await createHarness();
    expect(await h.ok({ action: "read_session", relay: "this", session: h.caller.id })).toMatchObject({
      session: h.caller.id,
    });
  });

  it("an unknown or deleted session is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    const gone = await h.ownerSession();
    await h.stores.sessions.deleteSession({ id: gone.id, at: h.clock.now() });
    for (const session of ["ses_nope", gone.id]) {
      expect(refusal(await h.call({ action: "read_session", relay: "this", session }))).toEqual({
        code: "REMOTE_RELAY_NOT_FOUND",
        error: `No session "${session}" on relay "desk". list_sessions shows the sessions there.`,
      });
    }
  });
});
