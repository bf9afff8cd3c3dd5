import { ListSessionsResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createHarness, settle } from "./harness";

describe("list_sessions (§11, GAP-06)", () => {
  it("R-LSES-01/02: id, title, provider, model, state, cwd, lastActivityAt, messageCount, tasks", async () => {
    const h = await createHarness();
    const result = ListSessionsResultSchema.parse(await h.ok({ action: "list_sessions", relay: "this" }));
    expect(result.sessions).toEqual([
      {
        id: h.caller.id,
        title: "Planner",
        provider: "test",
        model: "test-1",
        state: "idle",
        cwd: "/srv/app",
        lastActivityAt: "2026-01-01T00:00:00.000Z",
        messageCount: 0,
        tasks: [],
      },
    ]);
  });

  it("R-LSES-02: a session with a turn running is `running_turn`", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.sendHeld(target.id);
    await settle();
    const result = await h.ok({ action: "list_sessions", relay: "this" });
    const entry = (result.sessions as { id: string; state: string; messageCount: number }[]).find(
      (s) => s.id === target.id,
    );
    expect(entry).toMatchObject({ state: "running_turn", messageCount: 1 });
  });

  it("GAP-06: scope active (default), archived, all", async () => {
    const h = await createHarness();
    const archived = await h.ownerSession({ title: "Old" });
    await h.stores.sessions.archiveSession({ id: archived.id, at: h.clock.now() });
    const ids = async (scope?: string) =>
      (
        (await h.ok({ action: "list_sessions", relay: "this", ...(scope ? { scope } : {}) })).sessions as {
          id: string;
        }[]
      ).map((s) => s.id);
    expect(await ids()).toEqual([h.caller.id]);
    expect(await ids("archived")).toEqual([archived.id]);
    expect((await ids("all")).sort()).toEqual([h.caller.id, archived.id].sort());
    const all = await h.ok({ action: "list_sessions", relay: "this", scope: "all" });
    expect(all.sessions).toContainEqual(expect.objectContaining({ id: archived.id, archived: true }));
  });

  it("R-LSES-04, R-UI-03, R-LOCAL-04: group, viaAgent and mayCreateSessions", async () => {
    const h = await createHarness();
    const created = await h.ok({ action: "create_session", relay: "this", text: "hello", title: "Worker" });
    const allowed = await h.ownerSession({ title: "Trusted", mayCreateSessions: true });
    const result = await h.ok({ action: "list_sessions", relay: "this" });
    const sessions = result.sessions as Record<string, unknown>[];
    const group = (created.group as { id: string }).id;
    expect(sessions.find((s) => s.id === created.session)).toMatchObject({
      title: "Worker",
      viaAgent: { id: h.caller.id, title: "Planner" },
      group: { id: group, name: "Planner", role: "member" },
    });
    expect(sessions.find((s) => s.id === h.caller.id)).toMatchObject({
      group: { id: group, name: "Planner", role: "head" },
    });
    expect(sessions.find((s) => s.id === h.caller.id)).not.toHaveProperty("viaAgent");
    expect(sessions.find((s) => s.id === allowed.id)).toMatchObject({ mayCreateSessions: true });
    expect(sessions.find((s) => s.id === h.caller.id)).not.toHaveProperty("mayCreateSessions");
  });
});
