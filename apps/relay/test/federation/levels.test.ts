import { describe, expect, it } from "vitest";
import { call, createNetwork, externalCaller, ownerSession, pair, session, settled } from "./network";

const ACCEPT_PROMPTS = "Accept prompts from other relays' agents";

describe("what a pairing's level allows (GAP-03, R-PERM-01…06) over HTTP", { timeout: 60_000 }, () => {
  it("GAP-03: at read, send is REMOTE_RELAY_PERMISSION naming Read and prompt; reads work; nothing reaches B for the refusal", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box, { level: "read" });
    const deploy = await ownerSession(box, "Deploy", "!reply ready");
    await settled(box, deploy);
    const caller = await externalCaller(desk, { mentions: "build-box" });

    const before = net.toolCallsTo("build-box.test").length;
    const sent = await call(desk, caller.token, {
      action: "send",
      relay: "build-box",
      session: deploy,
      text: "!reply no",
      wait_seconds: 0,
    });
    expect(sent).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(String(sent.error)).toContain("Read and prompt");
    expect(net.toolCallsTo("build-box.test")).toHaveLength(before);

    const created = await call(desk, caller.token, {
      action: "create_session",
      relay: "build-box",
      text: "hi",
    });
    expect(created).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(String(created.error)).toContain("Full");

    const read = await call(desk, caller.token, {
      action: "read_session",
      relay: "build-box",
      session: deploy,
    });
    expect(read).toMatchObject({ ok: true, relay: "build-box", session: deploy });
    expect(JSON.stringify(read)).toContain("ready");
    for (const action of ["list_sessions", "relay_info", "usage"]) {
      expect(await call(desk, caller.token, { action, relay: "build-box" }), action).toMatchObject({
        ok: true,
      });
    }
    expect(
      await call(desk, caller.token, {
        action: "wait",
        relay: "build-box",
        session: deploy,
        wait_seconds: 0,
      }),
    ).toMatchObject({ ok: true, status: "done" });
    expect((await session(box, deploy)).turns).toHaveLength(1);
  });

  it("GAP-03: PATCH to prompt lets send through at once; create_session, update_session, stop and archive still need Full", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box, { level: "read" });
    const deploy = await ownerSession(box, "Deploy");
    const caller = await externalCaller(desk, { mentions: "build-box" });
    await desk.ownerJson("PATCH", "/v1/owner/peers/build-box", { level: "prompt" });

    expect(
      await call(desk, caller.token, {
        action: "send",
        relay: "build-box",
        session: deploy,
        text: "!reply on it",
        wait_seconds: 30,
      }),
    ).toMatchObject({ ok: true, relay: "build-box", status: "done", reply: { text: "on it" } });

    const refusals: Record<string, Record<string, unknown>> = {
      create_session: { text: "hi" },
      update_session: { session: deploy, title: "Renamed" },
      stop: { session: deploy },
      archive: { session: deploy },
    };
    for (const [action, args] of Object.entries(refusals)) {
      const refused = await call(desk, caller.token, { action, relay: "build-box", ...args });
      expect(refused, action).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
      expect(String(refused.error), action).toContain("Full");
    }
    expect(await session(box, deploy)).toMatchObject({ title: "Deploy", archivedAt: null });
  });

  it("GAP-03, R-PERM-03: at none only list_relays works; every other action names the level it needs", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box, { level: "none" });
    const caller = await externalCaller(desk, { mentions: "build-box" });
    const refused = await call(desk, caller.token, { action: "relay_info", relay: "build-box" });
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(String(refused.error)).toContain("Read");
    expect(await call(desk, caller.token, { action: "list_relays" })).toMatchObject({
      relays: [{ name: "desk" }, { name: "build-box", permission: "none", unlocked: true }],
    });
  });
});

describe("Accept prompts from other relays' agents off on the target (R-PERM-07/08) over HTTP", {
  timeout: 60_000,
}, () => {
  it("R-PERM-07: writes are refused by B with REMOTE_RELAY_PERMISSION naming the setting, and B is untouched", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const deploy = await ownerSession(box, "Deploy");
    await box.ownerJson("PATCH", "/v1/owner/settings", { acceptPromptsFromOtherRelays: false });
    const caller = await externalCaller(desk, { mentions: "build-box" });
    const before = await session(box, deploy);

    const writes: Record<string, Record<string, unknown>> = {
      send: { session: deploy, text: "!reply no", wait_seconds: 0 },
      create_session: { text: "hi", wait_seconds: 0 },
      stop: { session: deploy },
      archive: { session: deploy },
      answer_question: { question_id: "q_unknown", answer: "yes" },
    };
    for (const [action, args] of Object.entries(writes)) {
      const refused = await call(desk, caller.token, { action, relay: "build-box", ...args });
      expect(refused, action).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
      expect(String(refused.error), action).toContain(ACCEPT_PROMPTS);
    }
    // create_session's first-session card on desk is not raised for a call B refuses (preflight first).
    expect(
      (await desk.ownerJson<{ cards: unknown[] }>("GET", "/v1/owner/cards?status=pending")).cards,
    ).toEqual([]);
    expect(await session(box, deploy)).toEqual(before);
    const { sessions } = await box.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions");
    expect(sessions).toHaveLength(1);
  });

  it("R-PERM-08: listing, reading, waiting, relay_info and usage still work, and relay_info says B does not accept prompts", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const deploy = await ownerSession(box, "Deploy", "!reply built");
    await settled(box, deploy);
    await box.ownerJson("PATCH", "/v1/owner/settings", { acceptPromptsFromOtherRelays: false });
    const caller = await externalCaller(desk, { mentions: "build-box" });

    expect(await call(desk, caller.token, { action: "list_sessions", relay: "build-box" })).toMatchObject({
      ok: true,
      sessions: [{ id: deploy, title: "Deploy" }],
    });
    const read = await call(desk, caller.token, {
      action: "read_session",
      relay: "build-box",
      session: deploy,
    });
    expect(read).toMatchObject({ ok: true, session: deploy });
    expect(JSON.stringify(read)).toContain("built");
    expect(await call(desk, caller.token, { action: "relay_info", relay: "build-box" })).toMatchObject({
      ok: true,
      name: "build-box",
      acceptsPrompts: false,
    });
    expect(await call(desk, caller.token, { action: "usage", relay: "build-box" })).toMatchObject({
      ok: true,
    });
    expect(
      await call(desk, caller.token, {
        action: "wait",
        relay: "build-box",
        session: deploy,
        wait_seconds: 0,
      }),
    ).toMatchObject({ ok: true, status: "done", reply: { text: "built" } });
  });
});
