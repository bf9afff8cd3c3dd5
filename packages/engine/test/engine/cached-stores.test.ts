import { describe, expect, it } from "vitest";
import { createHarness } from "../actions/harness";

const BUILD_BOX = { name: "build-box", url: "https://build-box.test", token: "t", level: "full" } as const;

describe("caches and transactions (DESIGN §7, §9)", () => {
  it("a token revoked inside a transaction (deleting its session) is refused at once, not a second later", async () => {
    const h = await createHarness();
    const session = await h.ownerSession();
    const token = await h.engine.owner.issueAgentToken(session.id);
    expect(await h.engine.authenticate("agent", token)).toMatchObject({ subject: session.id });
    await h.engine.owner.deleteSession(session.id);
    expect(await h.engine.authenticate("agent", token)).toBeNull();
  });

  it("a pairing removed with its unlocks in one transaction is forgotten at once: the mention no longer opens it (R-LOCK-01)", async () => {
    const h = await createHarness();
    await h.engine.owner.createPeer(BUILD_BOX);
    await h.engine.owner.postMessage(h.caller.id, "please look at build-box");
    const read = { action: "list_sessions", relay: "build-box" };
    // Unlocked by the mention: the call goes on to the (unreachable) relay.
    expect(await h.call(read)).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNREACHABLE" });
    await h.engine.owner.removePeer("build-box");
    await h.engine.owner.createPeer(BUILD_BOX);
    expect(await h.call(read)).toMatchObject({ ok: false, code: "REMOTE_RELAY_LOCKED" });
  });

  it("a failed transaction's writes leave no trace in the caches either", async () => {
    const h = await createHarness();
    await h.engine.owner.createPeer(BUILD_BOX);
    expect(await h.engine.owner.listPeers()).toHaveLength(1);
    await expect(
      h.deps.stores.transaction(async (tx) => {
        await tx.peers.removePeer({ name: "build-box", at: h.clock.now() });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await h.engine.owner.listPeers()).map((peer) => peer.name)).toEqual(["build-box"]);
  });
});
