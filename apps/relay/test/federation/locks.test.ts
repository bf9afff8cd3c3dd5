import { describe, expect, it } from "vitest";
import { call, createNetwork, externalCaller, ownerSession, ownerWrites, pair } from "./network";

describe("a paired relay is locked in each conversation until the owner names it (§3.2) over HTTP", {
  timeout: 60_000,
}, () => {
  it("R-LOCK-04/05: before any mention, list_sessions on build-box is REMOTE_RELAY_LOCKED and nothing reaches it; list_relays says unlocked:false", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    await ownerSession(box, "Nightly deploy");
    const caller = await externalCaller(desk, { mentions: "Have a look at the other relay." });

    const locked = await call(desk, caller.token, { action: "list_sessions", relay: "build-box" });
    expect(locked).toMatchObject({ ok: false, code: "REMOTE_RELAY_LOCKED" });
    expect(String(locked.error)).toContain("Ask the user to mention it");
    expect(String(locked.error)).toContain("build-box");
    expect(net.toolCallsTo("build-box.test")).toEqual([]);

    const listed = await call(desk, caller.token, { action: "list_relays" });
    expect(listed).toMatchObject({
      ok: true,
      summary: "list_relays: 2 relays, 1 unlocked",
      relays: [
        { name: "desk", self: true, unlocked: true },
        { name: "build-box", url: "https://build-box.test", online: true, unlocked: false },
      ],
    });
  });

  it("R-LOCK-01(a), R-LOCK-03: the owner naming the relay's host unlocks it for the rest of that conversation only", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    await ownerSession(box, "Nightly deploy");
    const caller = await externalCaller(desk);
    const other = await externalCaller(desk);

    await ownerWrites(desk, caller.id, "What runs on build-box.test tonight?");
    const listed = await call(desk, caller.token, { action: "list_sessions", relay: "build-box" });
    expect(listed).toMatchObject({ ok: true, relay: "build-box" });
    expect(JSON.stringify(listed.sessions)).toContain("Nightly deploy");
    expect(await call(desk, caller.token, { action: "list_relays" })).toMatchObject({
      summary: "list_relays: 2 relays, 2 unlocked",
      relays: [{ name: "desk" }, { name: "build-box", unlocked: true }],
    });

    // Later messages that do not name it leave it open (R-LOCK-03).
    await ownerWrites(desk, caller.id, "Thanks, carry on.");
    expect(await call(desk, caller.token, { action: "relay_info", relay: "build-box" })).toMatchObject({
      ok: true,
    });
    // Another conversation of the same relay is still locked.
    expect(await call(desk, other.token, { action: "list_sessions", relay: "build-box" })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_LOCKED",
    });
  });

  it("R-RLY-03, R-LOCK-01(a): the relay's name unlocks too, and the agent may name the relay by its host", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const caller = await externalCaller(desk, { mentions: "Deploy with Build-Box." });
    for (const relay of ["build-box", "BUILD-BOX", "build-box.test"]) {
      expect(await call(desk, caller.token, { action: "relay_info", relay }), relay).toMatchObject({
        ok: true,
        relay: "build-box",
        name: "build-box",
      });
    }
  });
});
