import { describe, expect, it } from "vitest";
import { refusal } from "../actions/harness";
import { createFederation, relayOf } from "./harness";

async function pairedAt(level: "none" | "read" | "prompt" | "full") {
  const fed = await createFederation(["desk", "build-box"]);
  const desk = relayOf(fed, "desk");
  const box = relayOf(fed, "build-box");
  await desk.pair(box, { level });
  await desk.write("over to build-box");
  const target = await box.ownerSession("Nightly deploy");
  return { fed, desk, box, target };
}

const read = (session: string) => ({ action: "read_session", relay: "build-box", session });
const send = (session: string) => ({
  action: "send",
  relay: "build-box",
  session,
  text: "hi",
  wait_seconds: 0,
});
const create = { action: "create_session", relay: "build-box", text: "hi", wait_seconds: 0 };

describe("what a paired relay allows (§4.1, DESIGN GAP-03)", () => {
  it("GAP-03: none allows nothing but list_relays", async () => {
    const { fed, desk, target } = await pairedAt("none");
    expect(refusal(await desk.call(read(target.id)))).toMatchObject({
      code: "REMOTE_RELAY_PERMISSION",
      error: expect.stringContaining('needs at least "Read"'),
    });
    await desk.ok({ action: "list_relays" });
    expect(fed.requests).toEqual([]);
  });

  it("GAP-03, R-QCHK-02: read reads and waits; a prompt needs Read and prompt", async () => {
    const { fed, desk, target } = await pairedAt("read");
    await desk.ok(read(target.id));
    await desk.ok({ action: "list_sessions", relay: "build-box" });
    expect(refusal(await desk.call(send(target.id)))).toMatchObject({
      code: "REMOTE_RELAY_PERMISSION",
      error: expect.stringContaining('needs at least "Read and prompt"'),
    });
    expect(fed.requests.map((entry) => entry.request.call.action)).toEqual(["read_session", "list_sessions"]);
  });

  it("GAP-03: prompt sends; create_session, update_session, stop and archive need Full", async () => {
    const { desk, target } = await pairedAt("prompt");
    expect(await desk.ok(send(target.id))).toMatchObject({ relay: "build-box", session: target.id });
    for (const input of [
      create,
      { action: "update_session", relay: "build-box", session: target.id, title: "X" },
      { action: "stop", relay: "build-box", session: target.id },
      { action: "archive", relay: "build-box", session: target.id },
    ]) {
      expect(refusal(await desk.call(input)), input.action).toMatchObject({
        code: "REMOTE_RELAY_PERMISSION",
        error: expect.stringContaining('needs at least "Full"'),
      });
    }
  });

  it("R-PERM-02: a new pairing is Full", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    await desk.engine.owner.createPeer({
      name: "build-box",
      url: "https://build-box.test",
      token: "invite-for-build-box",
      level: "full",
    });
    expect(await desk.engine.owner.listPeers()).toEqual([
      {
        name: "build-box",
        url: "https://build-box.test",
        level: "full",
        online: true,
        version: "0.9.19",
        problem: null,
      },
    ]);
  });

  it("R-PERM-07/08: with Accept prompts off there, writes are refused by that relay; reads and waits still work", async () => {
    const { desk, box, target } = await pairedAt("full");
    await box.engine.owner.patchSettings({ acceptPromptsFromOtherRelays: false });
    for (const input of [
      send(target.id),
      create,
      { action: "stop", relay: "build-box", session: target.id },
      { action: "archive", relay: "build-box", session: target.id },
    ]) {
      expect(refusal(await desk.call(input)), input.action).toMatchObject({
        code: "REMOTE_RELAY_PERMISSION",
        error: expect.stringContaining("Accept prompts from other relays' agents"),
      });
    }
    for (const input of [
      read(target.id),
      { action: "list_sessions", relay: "build-box" },
      { action: "relay_info", relay: "build-box" },
      { action: "usage", relay: "build-box" },
    ]) {
      await desk.ok(input);
    }
    expect((await box.stores.sessions.listMessages(target.id)).length).toBe(0);
  });

  it("R-PERM-06, R-LREL-01: list_relays reports each pairing's level", async () => {
    const { desk } = await pairedAt("read");
    expect(await desk.ok({ action: "list_relays" })).toMatchObject({
      relays: [
        { name: "desk", permission: "full" },
        { name: "build-box", permission: "read" },
      ],
    });
  });

  it("R-SCH-03: a schedule action naming a paired relay is UNSUPPORTED, lock and level aside", async () => {
    const { fed, desk } = await pairedAt("full");
    expect(refusal(await desk.call({ action: "list_schedules", relay: "build-box" })).code).toBe(
      "REMOTE_RELAY_UNSUPPORTED",
    );
    expect(fed.requests).toEqual([]);
  });

  it("GAP-02: agent sessions off here leave paired relays usable and the tool offered", async () => {
    const { desk, target } = await pairedAt("full");
    await desk.engine.owner.patchSettings({ agentSessions: { enabled: false } });
    expect(await desk.engine.isToolEnabled(desk.caller.id)).toBe(true);
    expect(refusal(await desk.call({ action: "list_sessions", relay: "this" })).code).toBe(
      "REMOTE_RELAY_PERMISSION",
    );
    await desk.ok(read(target.id));
    await desk.engine.owner.removePeer("build-box");
    expect(await desk.engine.isToolEnabled(desk.caller.id)).toBe(false);
  });
});
