import { UpdateSessionResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createHarness, refusal } from "./harness";

describe("update_session (§16)", () => {
  it("R-UPD-01/04: changes a session the caller started and returns its settings and what changed", async () => {
    const h = await createHarness();
    const target = await h.agentSession({
      id: "ses_3f9c2a1e0000",
      title: "Review: server/",
      cwd: "/srv/app",
    });
    const result = UpdateSessionResultSchema.parse(
      await h.ok({
        action: "update_session",
        relay: "this",
        session: target.id,
        model: "test-2",
        effort: "low",
        group: "Release 2.4",
      }),
    );
    expect(result).toEqual({
      ok: true,
      relay: "desk",
      summary: "update_session → desk session 3f9c2a1e: model, effort, group",
      session: target.id,
      settings: {
        model: "test-2",
        effort: "low",
        mode: "agent",
        auto_compact_window: null,
        title: "Review: server/",
        group: { id: expect.stringMatching(/^grp_/), name: "Release 2.4", role: "head" },
        thinking_enabled: null,
        thinking_display: null,
        cwd: "/srv/app",
      },
      changed: ["model", "effort", "group"],
      groupCreated: { id: result.settings.group?.id, name: "Release 2.4" },
    });
    expect(await h.session(target.id)).toMatchObject({ model: "test-2", effort: "low" });
  });

  it("R-UPD-06: a call that would change nothing returns changed: [] (even for a session it did not start)", async () => {
    const h = await createHarness();
    const target = await h.ownerSession({ title: "Theirs" });
    const result = await h.ok({
      action: "update_session",
      relay: "this",
      session: target.id,
      title: "Theirs",
      model: "test-1",
    });
    expect(result).toMatchObject({ changed: [], summary: expect.stringMatching(/: nothing to change$/) });
  });

  it("R-UPD-09/10, permissions issue: a session the caller did not start is REMOTE_RELAY_PERMISSION, nothing changed", async () => {
    const h = await createHarness();
    const target = await h.ownerSession({ title: "Theirs" });
    const result = refusal(
      await h.call({ action: "update_session", relay: "this", session: target.id, title: "Mine" }),
    );
    expect(result.code).toBe("REMOTE_RELAY_PERMISSION");
    expect(result.error).toContain("was not started by this conversation");
    expect(result.error).toMatch(/approval.*Nothing was changed\.$/);
    expect((await h.session(target.id)).title).toBe("Theirs");
  });

  it("R-UPD-13/14, R-MDL-11: an unknown model is refused before anything, nothing changed", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    const result = await h.call({
      action: "update_session",
      relay: "this",
      session: target.id,
      title: "New",
      model: "test-9",
    });
    expect(result).toMatchObject({
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error: expect.stringMatching(
        /^Unknown model 'test-9' for Test provider on relay "desk".*Nothing was changed\.$/,
      ),
      models: ["test-1", "test-2"],
    });
    expect((await h.session(target.id)).title).toBe(target.title);
  });

  it("R-UPD-13: an effort the provider does not offer is REMOTE_RELAY_INVALID_INPUT", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    expect(
      refusal(await h.call({ action: "update_session", relay: "this", session: target.id, effort: "max" }))
        .code,
    ).toBe("REMOTE_RELAY_INVALID_INPUT");
  });

  it("R-UPD-15/18: a new name creates an agent group; the agent group left empty disappears", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    const first = await h.ok({ action: "update_session", relay: "this", session: target.id, group: "Alpha" });
    const alpha = (first.groupCreated as { id: string }).id;
    const second = await h.ok({ action: "update_session", relay: "this", session: target.id, group: "Beta" });
    expect(second.changed).toEqual(["group"]);
    expect(await h.stores.groups.getGroup(alpha)).toBeNull();
  });

  it("R-UPD-15: an existing group name joins it as a member", async () => {
    const h = await createHarness();
    const a = await h.agentSession();
    const b = await h.agentSession();
    const created = await h.ok({ action: "update_session", relay: "this", session: a.id, group: "Team" });
    const joined = await h.ok({ action: "update_session", relay: "this", session: b.id, group: "team" });
    expect(joined).not.toHaveProperty("groupCreated");
    expect((joined.settings as { group: unknown }).group).toEqual({
      id: (created.groupCreated as { id: string }).id,
      name: "Team",
      role: "member",
    });
  });

  it("R-UPD-16: a group id must exist (REMOTE_RELAY_UNKNOWN_GROUP); nothing changed", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    const result = await h.call({
      action: "update_session",
      relay: "this",
      session: target.id,
      group: "grp_nope",
      title: "X",
    });
    expect(result).toMatchObject({
      code: "REMOTE_RELAY_UNKNOWN_GROUP",
      error: 'Relay "desk" has no session group "grp_nope". Groups there: none. Nothing was changed.',
      groups: [],
    });
    expect((await h.session(target.id)).title).toBe(target.title);
  });

  it("R-UPD-14: a name matching two groups is REMOTE_RELAY_UNKNOWN_GROUP ending `Pass the id.`", async () => {
    const h = await createHarness();
    await h.stores.groups.createGroup({
      id: "grp_a",
      name: "Dup",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    await h.stores.groups.createGroup({
      id: "grp_b",
      name: "dup",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    const target = await h.agentSession();
    const result = refusal(
      await h.call({ action: "update_session", relay: "this", session: target.id, group: "DUP" }),
    );
    expect(result).toEqual({
      code: "REMOTE_RELAY_UNKNOWN_GROUP",
      error: 'Relay "desk" has 2 session groups named "DUP": Dup (grp_a), dup (grp_b). Pass the id.',
    });
  });

  it('GAP-08: group "none" takes the session out; R-UPD-17: the owner\'s group stays, empty', async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    await h.stores.groups.createGroup({
      id: "grp_owner",
      name: "Owner's",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    await h.ok({ action: "update_session", relay: "this", session: target.id, group: "grp_owner" });
    const left = await h.ok({ action: "update_session", relay: "this", session: target.id, group: "NONE" });
    expect(left).toMatchObject({ changed: ["group"], settings: { group: null } });
    expect(await h.stores.groups.getGroup("grp_owner")).not.toBeNull();
    const again = await h.ok({ action: "update_session", relay: "this", session: target.id, group: "none" });
    expect(again.changed).toEqual([]);
  });

  it("R-UPD-19/05: a new folder is recorded and the agent restarts there (relaunched)", async () => {
    const h = await createHarness({ allowedRoots: ["/srv"] });
    const target = await h.agentSession({ cwd: "/srv/app" });
    await h.ok({ action: "send", relay: "this", session: target.id, text: "warm up" });
    const result = await h.ok({
      action: "update_session",
      relay: "this",
      session: target.id,
      cwd: "/srv/web",
    });
    expect(result).toMatchObject({ changed: ["cwd"], relaunched: true, settings: { cwd: "/srv/web" } });
    expect(h.provider.workersClosed).toContain(target.id);
    await h.ok({ action: "send", relay: "this", session: target.id, text: "again" });
    expect(h.provider.turns.at(-1)?.input.cwd).toBe("/srv/web");
  });

  it("R-UPD-20: a new folder for a busy session is REMOTE_RELAY_BUSY; nothing changed", async () => {
    const h = await createHarness();
    const target = await h.agentSession({ cwd: "/srv/app" });
    await h.sendHeld(target.id);
    await h.provider.nextTurn();
    const result = refusal(
      await h.call({
        action: "update_session",
        relay: "this",
        session: target.id,
        cwd: "/srv/web",
        title: "T",
      }),
    );
    expect(result).toEqual({
      code: "REMOTE_RELAY_BUSY",
      error: "The session cannot move to another folder now: a turn is running there. Nothing was changed.",
    });
    expect(await h.session(target.id)).toMatchObject({ cwd: "/srv/app", title: target.title });
  });

  it("R-UPD-21: a folder outside the allowed roots is REMOTE_RELAY_INVALID_INPUT", async () => {
    const h = await createHarness({ allowedRoots: ["/srv"] });
    const target = await h.agentSession();
    expect(
      refusal(await h.call({ action: "update_session", relay: "this", session: target.id, cwd: "/etc" }))
        .code,
    ).toBe("REMOTE_RELAY_INVALID_INPUT");
  });

  it("R-UPD-07: window and thinking are kept in settings, with a note that they apply only to Claude sessions", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    const result = await h.ok({
      action: "update_session",
      relay: "this",
      session: target.id,
      auto_compact_window: 200000,
      thinking_enabled: "off",
      thinking_display: "summarized",
      mode: "plan",
      title: "Renamed",
    });
    expect(result).toMatchObject({
      changed: ["mode", "title", "auto_compact_window", "thinking_enabled", "thinking_display"],
      settings: {
        auto_compact_window: 200000,
        thinking_enabled: false,
        thinking_display: "summarized",
        mode: "plan",
        title: "Renamed",
      },
      note: expect.stringContaining("apply only to Claude sessions"),
    });
    expect((await h.session(target.id)).settings).toEqual({
      auto_compact_window: 200000,
      thinking_enabled: false,
      thinking_display: "summarized",
    });
  });

  it("R-UPD-03: mayCreateSessions is the owner's setting alone", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    expect(
      refusal(
        await h.call({
          action: "update_session",
          relay: "this",
          session: target.id,
          mayCreateSessions: true,
        }),
      ),
    ).toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
    expect((await h.session(target.id)).mayCreateSessions).toBe(false);
  });

  it("an unknown, deleted or archived session is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    await h.stores.sessions.archiveSession({ id: target.id, at: h.clock.now() });
    expect(
      refusal(await h.call({ action: "update_session", relay: "this", session: target.id, title: "x" })).code,
    ).toBe("REMOTE_RELAY_NOT_FOUND");
    expect(
      refusal(await h.call({ action: "update_session", relay: "this", session: "ses_no", title: "x" })).code,
    ).toBe("REMOTE_RELAY_NOT_FOUND");
  });
});
