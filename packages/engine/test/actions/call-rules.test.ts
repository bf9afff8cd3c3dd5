import { describe, expect, it } from "vitest";
import { createHarness, refusal } from "./harness";

describe("call rules on this relay", () => {
  it("R-CALL-06/07: a refusal of parseCall comes back unchanged", async () => {
    const h = await createHarness();
    const result = await h.call({ action: "create_session", relay: "this", text: "hi", session: "x" });
    expect(result).toEqual({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error:
        "create_session does not take: session. Its arguments: relay, text, provider, model, cwd, repo, branch, mode, effort, title, group, wait_seconds. Nothing was created.",
    });
    expect(await h.stores.sessions.listSessions()).toHaveLength(1);
  });

  it("R-CALL-08: an accepted call lists the arguments it did not take in `ignored`", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "list_sessions", relay: "this", verbose: true, colour: "red" });
    expect(result.ignored).toEqual(["verbose", "colour"]);
  });

  it("R-CALL-08: `ignored` is left out when nothing was ignored, and kept on refusals", async () => {
    const h = await createHarness();
    expect(await h.ok({ action: "usage", relay: "this" })).not.toHaveProperty("ignored");
    const refused = await h.call({ action: "read_session", relay: "this", session: "ses_nope", verbose: 1 });
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND", ignored: ["verbose"] });
  });

  it("R-CALL-09: empty values count as absent and are not listed", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "list_sessions", relay: "this", scope: "", verbose: null });
    expect(result).not.toHaveProperty("ignored");
    expect(result.scope).toBe("active");
  });

  it("R-CALL-03, R-CALL-10: ok, relay and a one-line summary `<action> → <relay>[ session <id>]: …`", async () => {
    const h = await createHarness();
    const target = await h.ownerSession({ id: "ses_3f9c2a1e0000" });
    const result = await h.ok({ action: "read_session", relay: "this", session: target.id });
    expect(result).toMatchObject({
      ok: true,
      relay: "desk",
      summary: "read_session → desk session 3f9c2a1e: 0 messages",
    });
    const list = await h.ok({ action: "list_sessions", relay: "this" });
    expect(list.summary).toBe("list_sessions → desk: 2 sessions (active)");
  });

  it("R-NAME-05: a call arriving as remote_relay runs the same way", async () => {
    const h = await createHarness();
    const input = { action: "list_sessions", relay: "this" };
    const legacy = await h.call(input, { toolName: "remote_relay" });
    expect(legacy).toEqual(await h.call(input, { toolName: "relay_tool" }));
    expect(legacy.ok).toBe(true);
  });

  it("§3.1: the relay's own name, in any case, is this relay", async () => {
    const h = await createHarness();
    expect(await h.ok({ action: "usage", relay: "DESK" })).toMatchObject({ relay: "desk" });
    expect(await h.ok({ action: "usage", relay: "This" })).toMatchObject({ relay: "desk" });
  });

  it("§3.1: a name that is neither this relay nor a paired relay is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    expect(refusal(await h.call({ action: "list_sessions", relay: "build-box" }))).toEqual({
      code: "REMOTE_RELAY_NOT_FOUND",
      error:
        'No relay named "build-box": it is neither this relay ("desk") nor a paired relay\'s name or host. list_relays shows the relays this conversation can use.',
    });
  });

  it("an unknown or deleted caller is REMOTE_RELAY_AUTH", async () => {
    const h = await createHarness();
    expect(refusal(await h.callAs("ses_ghost", { action: "list_relays" })).code).toBe("REMOTE_RELAY_AUTH");
    const gone = await h.ownerSession();
    await h.stores.sessions.deleteSession({ id: gone.id, at: h.clock.now() });
    expect(refusal(await h.callAs(gone.id, { action: "usage", relay: "this" })).code).toBe(
      "REMOTE_RELAY_AUTH",
    );
  });

  it("DESIGN §7: a deleted caller gets nothing, reads included; a live one is read once a second, not on every read", async () => {
    const h = await createHarness();
    const caller = await h.ownerSession();
    let reads = 0;
    const getSession = h.stores.sessions.getSession;
    h.stores.sessions.getSession = (id) => {
      reads += id === caller.id ? 1 : 0;
      return getSession(id);
    };
    const list = { action: "list_sessions", relay: "this" };
    expect((await h.callAs(caller.id, list)).ok).toBe(true);
    expect((await h.callAs(caller.id, list)).ok).toBe(true);
    expect(reads).toBe(1);
    // Deleted by another process (straight in the store): refused once the second has passed.
    await h.stores.sessions.deleteSession({ id: caller.id, at: h.clock.now() });
    h.clock.advance(1_000);
    expect(refusal(await h.callAs(caller.id, list)).code).toBe("REMOTE_RELAY_AUTH");
    // Deleted through this engine's owner API: refused at once.
    const other = await h.ownerSession();
    expect((await h.callAs(other.id, list)).ok).toBe(true);
    await h.engine.owner.deleteSession(other.id);
    expect(refusal(await h.callAs(other.id, list)).code).toBe("REMOTE_RELAY_AUTH");
  });

  it.each([
    { action: "schedule", title: "t", text: "x", every_minutes: 5 },
    { action: "list_schedules" },
    { action: "unschedule", schedule_id: "sch_1" },
    { action: "ask", question: "why?" },
    { action: "list_questions" },
    { action: "withdraw", question_id: "ask_1" },
  ])("the schedule and question actions run on this relay: $action", async (input) => {
    const h = await createHarness();
    const result = await h.call(input);
    expect(result.code, JSON.stringify(result)).not.toBe("REMOTE_RELAY_UNSUPPORTED");
    expect(result.code).not.toBe("REMOTE_RELAY_INTERNAL");
  });

  it("a bug in an action is REMOTE_RELAY_INTERNAL with a request id, never an exception", async () => {
    const h = await createHarness();
    h.stores.reads.listSessions = async () => {
      throw new Error("disk on fire");
    };
    const result = await h.call({ action: "list_sessions", relay: "this" });
    expect(result).toMatchObject({ ok: false, code: "REMOTE_RELAY_INTERNAL", requestId: "req_000000000001" });
    expect(result.error).not.toContain("disk on fire");
  });
});

describe("GAP-02: the owner's switch for agent sessions on this relay", () => {
  it("off: actions on this relay are REMOTE_RELAY_PERMISSION naming the setting", async () => {
    const h = await createHarness();
    await h.patchSettings({ agentSessions: { enabled: false } });
    expect(refusal(await h.call({ action: "list_sessions", relay: "this" }))).toEqual({
      code: "REMOTE_RELAY_PERMISSION",
      error:
        'Agents may not use sessions on relay "desk": the owner\'s setting "Agents may start and use sessions on this relay" is off.',
    });
    const created = await h.call({ action: "create_session", relay: "this", text: "hi" });
    expect(refusal(created).code).toBe("REMOTE_RELAY_PERMISSION");
    expect(await h.stores.sessions.listSessions()).toHaveLength(1);
  });

  it("off: list_relays still answers, without this relay (R-LREL-02, R-LREL-03)", async () => {
    const h = await createHarness();
    await h.patchSettings({ agentSessions: { enabled: false } });
    const result = await h.ok({ action: "list_relays" });
    expect(result).toMatchObject({
      summary: "list_relays: 0 relays, 0 unlocked",
      relays: [],
      self: { name: "desk" },
    });
    expect(result.note).toContain("Agents may start and use sessions on this relay");
  });

  it("isToolEnabled follows the setting", async () => {
    const h = await createHarness();
    expect(await h.engine.isToolEnabled(h.caller.id)).toBe(true);
    await h.patchSettings({ agentSessions: { enabled: false } });
    expect(await h.engine.isToolEnabled(h.caller.id)).toBe(false);
  });
});
