import { describe, expect, it } from "vitest";
import { PEER_STATUS_TTL_MS } from "../../src/pairing/peer-status";
import { createHarness, refusal } from "../actions/harness";
import { refusal as rejected } from "../owner/harness";
import { createFederation, relayOf } from "./harness";

async function paired() {
  const fed = await createFederation(["desk", "build-box"]);
  const desk = relayOf(fed, "desk");
  const box = relayOf(fed, "build-box");
  await desk.pair(box);
  await desk.write("build-box");
  return { fed, desk, box };
}

describe("a paired relay that does not answer, or refuses this relay", () => {
  it("REMOTE_RELAY_UNREACHABLE names the relay; list_relays and the owner see it offline, then online again", async () => {
    const { fed, desk } = await paired();
    fed.down.add("build-box");
    expect(refusal(await desk.call({ action: "list_sessions", relay: "build-box" }))).toMatchObject({
      code: "REMOTE_RELAY_UNREACHABLE",
      error: expect.stringContaining('Relay "build-box" does not answer'),
    });
    expect(await desk.ok({ action: "list_relays" })).toMatchObject({
      relays: [{ name: "desk" }, { name: "build-box", online: false }],
    });
    expect(await desk.engine.owner.listPeers()).toMatchObject([{ name: "build-box", online: false }]);
    fed.down.delete("build-box");
    await fed.clock.advanceAsync(PEER_STATUS_TTL_MS);
    expect(await desk.ok({ action: "list_relays" })).toMatchObject({
      relays: [{ name: "desk" }, { name: "build-box", online: true, version: "0.9.19" }],
    });
    await desk.ok({ action: "list_sessions", relay: "build-box" });
  });

  it("a token the paired relay no longer accepts is REMOTE_RELAY_AUTH, saying how to pair again", async () => {
    const { desk } = await paired();
    await desk.engine.owner.patchPeer("build-box", { token: "revoked" });
    expect(refusal(await desk.call({ action: "usage", relay: "build-box" }))).toMatchObject({
      code: "REMOTE_RELAY_AUTH",
      error: expect.stringContaining("PATCH /v1/owner/peers/build-box"),
    });
    // The owner sees why: it answers, and refuses this relay.
    expect(await desk.engine.owner.listPeers()).toMatchObject([
      { name: "build-box", online: true, problem: expect.stringContaining("refuses this relay's token") },
    ]);
  });

  it("without a network to paired relays, a call to one is REMOTE_RELAY_UNREACHABLE and the pairing shows offline", async () => {
    const h = await createHarness({ approvalCards: true });
    expect(
      await h.engine.owner.createPeer({
        name: "build-box",
        url: "https://build-box.test",
        token: "t",
        level: "full",
      }),
    ).toMatchObject({ online: false, version: null });
    await h.engine.owner.postMessage(h.caller.id, "build-box");
    expect(refusal(await h.call({ action: "usage", relay: "build-box" }))).toMatchObject({
      code: "REMOTE_RELAY_UNREACHABLE",
      error: expect.stringContaining("no network to paired relays"),
    });
  });
});

describe("pairing, as the owner does it (DESIGN §4)", () => {
  it("refuses this relay's own name and a name already paired, in any case", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    const box = relayOf(fed, "build-box");
    await rejected(desk.pair(box, { name: "DESK" }), "REMOTE_RELAY_INVALID_INPUT");
    await desk.pair(box);
    await rejected(desk.pair(box, { name: "Build-Box" }), "REMOTE_RELAY_INVALID_INPUT");
  });

  it("a pairing that does not answer is kept, offline; PATCH and DELETE of an unknown one are NOT_FOUND", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    fed.down.add("build-box");
    expect(
      await desk.engine.owner.createPeer({
        name: "build-box",
        url: "https://build-box.test",
        token: "invite-for-build-box",
        level: "read",
      }),
    ).toEqual({
      name: "build-box",
      url: "https://build-box.test",
      level: "read",
      online: false,
      version: null,
      problem: "it does not answer (https://build-box.test does not answer)",
    });
    await rejected(desk.engine.owner.patchPeer("nope", { level: "full" }), "REMOTE_RELAY_NOT_FOUND");
    await rejected(desk.engine.owner.removePeer("nope"), "REMOTE_RELAY_NOT_FOUND");
  });

  it("a removed pairing is unknown to agents from the next call on", async () => {
    const { desk } = await paired();
    await desk.ok({ action: "usage", relay: "build-box" });
    await desk.engine.owner.removePeer("build-box");
    expect(refusal(await desk.call({ action: "usage", relay: "build-box" })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
    expect(await desk.ok({ action: "list_relays" })).toMatchObject({ relays: [{ name: "desk" }] });
  });

  it("a level lowered by the owner holds from the next call", async () => {
    const { desk, box } = await paired();
    const session = await box.ownerSession();
    await desk.ok({ action: "send", relay: "build-box", session: session.id, text: "x", wait_seconds: 0 });
    expect(await desk.engine.owner.patchPeer("build-box", { level: "read" })).toMatchObject({
      level: "read",
    });
    expect(
      refusal(
        await desk.call({
          action: "send",
          relay: "build-box",
          session: session.id,
          text: "x",
          wait_seconds: 0,
        }),
      ).code,
    ).toBe("REMOTE_RELAY_PERMISSION");
  });

  it("the result names the relay as this relay knows it, whatever it calls itself", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    await desk.pair(relayOf(fed, "build-box"), { name: "box" });
    await desk.write("use box");
    expect(await desk.ok({ action: "list_sessions", relay: "box" })).toMatchObject({
      relay: "box",
      summary: expect.stringMatching(/^list_sessions → box: /),
    });
  });
});
