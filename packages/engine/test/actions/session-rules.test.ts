import { describe, expect, it } from "vitest";
import { createHarness, refusal, settle } from "./harness";

describe("rules for sessions on this relay (§5)", () => {
  it("R-LOCAL-01/02: 4 sessions at work are fine, the 5th is REMOTE_RELAY_LIMIT, then ok again once one ends", async () => {
    const h = await createHarness();
    const created: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await h.ok({ action: "create_session", relay: "this", text: "hold", wait_seconds: 0 });
      created.push(result.session as string);
    }
    const fifth = await h.call({ action: "create_session", relay: "this", text: "hold", wait_seconds: 0 });
    expect(refusal(fifth)).toEqual({
      code: "REMOTE_RELAY_LIMIT",
      error:
        "This conversation already has 4 sessions it started at work (a turn queued or running); at most 4 may be, so wait until one of them has finished. Nothing was created.",
    });
    expect(await h.stores.sessions.listSessions()).toHaveLength(5);

    const first = await h.provider.nextTurn();
    first.finish();
    await settle();
    expect(await h.ok({ action: "create_session", relay: "this", text: "hi" })).toMatchObject({
      status: "done",
    });
  });

  it("R-LOCAL-01: a send that would wake a 5th idle session of the caller is refused too; a busy one queues", async () => {
    const h = await createHarness();
    const idle = await h.agentSession();
    const busy: string[] = [];
    for (let i = 0; i < 4; i++) {
      busy.push(
        (await h.ok({ action: "create_session", relay: "this", text: "hold", wait_seconds: 0 }))
          .session as string,
      );
    }
    const refused = refusal(await h.call({ action: "send", relay: "this", session: idle.id, text: "hi" }));
    expect(refused.code).toBe("REMOTE_RELAY_LIMIT");
    expect(refused.error).toMatch(/Nothing was sent\.$/);
    const queued = await h.ok({
      action: "send",
      relay: "this",
      session: busy[0],
      text: "more",
      wait_seconds: 0,
    });
    expect(queued.status).toBe("queued");
    // Sessions the caller did not start do not count.
    const other = await h.ownerSession();
    expect(await h.ok({ action: "send", relay: "this", session: other.id, text: "hi" })).toMatchObject({
      status: "done",
    });
  });

  it("R-LOCAL-01: sessions started by another conversation do not count", async () => {
    const h = await createHarness();
    for (let i = 0; i < 4; i++) {
      await h.ok({ action: "create_session", relay: "this", text: "hold", wait_seconds: 0 });
    }
    const other = await h.ownerSession({ title: "Other" });
    expect(await h.ok({ action: "create_session", relay: "this", text: "hi" }, other.id)).toMatchObject({
      status: "done",
    });
  });

  it("R-LOCAL-03: a session an agent started cannot create sessions (REMOTE_RELAY_LIMIT)", async () => {
    const h = await createHarness();
    const child = (await h.ok({ action: "create_session", relay: "this", text: "hi" })).session as string;
    const result = refusal(
      await h.callAs(child, { action: "create_session", relay: "this", text: "grandchild" }),
    );
    expect(result.code).toBe("REMOTE_RELAY_LIMIT");
    expect(result.error).toContain("Agents in this conversation may start sessions");
    expect(await h.stores.sessions.listSessions()).toHaveLength(2);
  });

  it("R-LOCAL-03: … unless the owner set mayCreateSessions for it", async () => {
    const h = await createHarness();
    const child = (await h.ok({ action: "create_session", relay: "this", text: "hi" })).session as string;
    await h.stores.sessions.updateSession(child, { mayCreateSessions: true });
    const result = await h.ok({ action: "create_session", relay: "this", text: "grandchild" }, child);
    expect(await h.session(result.session as string)).toMatchObject({
      viaAgent: "hi",
      createdBy: { session: child },
    });
  });

  it.each(["send", "wait", "stop", "archive", "update_session"])(
    "R-LOCAL-06: %s on itself is REMOTE_RELAY_SELF",
    async (action) => {
      const h = await createHarness();
      const extra = action === "send" ? { text: "hi" } : action === "update_session" ? { title: "Me" } : {};
      const result = refusal(await h.call({ action, relay: "this", session: h.caller.id, ...extra }));
      expect(result.code).toBe("REMOTE_RELAY_SELF");
      expect(await h.session(h.caller.id)).toMatchObject({ title: "Planner", archivedAt: null });
    },
  );

  // Thirty days, as after the machine slept (each timer due fires once), then an hour of the
  // relay's timers as they come: what a timer-driven archiver would need to act.
  it("R-LOCAL-08: sessions an agent started are never archived by the relay", async () => {
    const h = await createHarness();
    const child = (await h.ok({ action: "create_session", relay: "this", text: "hi" })).session as string;
    await h.clock.jumpAsync(30 * 24 * 3600 * 1000);
    await h.clock.advanceAsync(3600 * 1000);
    expect((await h.session(child)).archivedAt).toBeNull();
  });
});
