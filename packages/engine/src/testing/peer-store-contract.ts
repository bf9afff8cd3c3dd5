import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { NewPeer, PeerRecord, PeerStore } from "../ports/peer-store";

function newPeer(id: string, name: string, overrides: Partial<NewPeer> = {}): NewPeer {
  return {
    id,
    name,
    url: `https://${name.toLowerCase()}.example.net`,
    level: "full",
    token: `invite-of-${name.toLowerCase()}`,
    createdAt: T0,
    ...overrides,
  };
}

/** The behaviour every PeerStore must have: the pairings of this relay (DESIGN §4 pairing). */
export function runPeerStoreContract(setup: ContractSetup<ContractFixture<PeerStore>>): void {
  describe("PeerStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const ids = (peers: readonly { id: string }[]) => peers.map((peer) => peer.id);

    /** Creates a pairing that the test needs to exist, and returns it. */
    const pair = async (input: NewPeer): Promise<PeerRecord> => {
      const created = await store().createPeer(input);
      if (!created.ok) {
        throw new Error(`Pairing ${input.name} was refused: ${created.reason}.`);
      }
      return created.peer;
    };

    it("creates a pairing and reads back every field, with nothing heard from it yet", async () => {
      const created = await store().createPeer(
        newPeer("peer_1", "Build-Box", {
          url: "https://build-box.example.net:8787",
          level: "prompt",
          token: "oar_inv_3f9a",
          createdAt: T0 + 5,
        }),
      );
      const expected: PeerRecord = {
        id: "peer_1",
        name: "Build-Box",
        url: "https://build-box.example.net:8787",
        level: "prompt",
        token: "oar_inv_3f9a",
        remoteName: null,
        version: null,
        features: null,
        createdAt: T0 + 5,
        updatedAt: T0 + 5,
        lastSeenAt: null,
        linkLostAt: null,
      };
      expect(created).toEqual({ ok: true, peer: expected });
      expect(await store().getPeer("Build-Box")).toEqual(expected);
      expect(await store().listPeers()).toEqual([expected]);
      expect(await store().countPeers()).toBe(1);
    });

    it("finds a pairing by its name in any case, and keeps the name as it was given", async () => {
      await pair(newPeer("peer_1", "Build-Box"));
      expect((await store().getPeer("build-box"))?.id).toBe("peer_1");
      expect((await store().getPeer("BUILD-BOX"))?.name).toBe("Build-Box");
      expect(await store().getPeer("build")).toBeNull();
      expect(await store().getPeer("desk")).toBeNull();
    });

    it("refuses a name already paired, in the same or another case, and writes nothing", async () => {
      const first = await pair(newPeer("peer_1", "build-box"));
      for (const [id, name] of [
        ["peer_2", "build-box"],
        ["peer_3", "Build-Box"],
      ] as const) {
        expect(
          await store().createPeer(
            newPeer(id, name, { url: "https://elsewhere.example.net", createdAt: T0 + 1 }),
          ),
        ).toEqual({ ok: false, reason: "name_taken" });
      }
      expect(await store().getPeer("build-box")).toEqual(first);
      expect(await store().listPeers()).toEqual([first]);
      expect(await store().countPeers()).toBe(1);
      // The refused ids were not kept either: they can still pair under another name.
      expect((await store().createPeer(newPeer("peer_2", "desk"))).ok).toBe(true);
      expect((await store().createPeer(newPeer("peer_3", "laptop"))).ok).toBe(true);
    });

    it("frees the name of a removed pairing for a new one", async () => {
      await pair(newPeer("peer_1", "desk"));
      expect(await store().removePeer({ name: "desk", at: T0 + 1 })).toBe(true);
      const again = await store().createPeer(
        newPeer("peer_2", "Desk", { url: "https://desk-2.example.net", createdAt: T0 + 2 }),
      );
      expect(again).toMatchObject({ ok: true, peer: { id: "peer_2", name: "Desk" } });
      expect((await store().getPeer("desk"))?.id).toBe("peer_2");
      expect(ids(await store().listPeers())).toEqual(["peer_2"]);
      // Every write by name goes to the live pairing, never to the removed one.
      expect(await store().updatePeer({ name: "desk", patch: { level: "read" }, at: T0 + 3 })).toMatchObject({
        id: "peer_2",
        level: "read",
        url: "https://desk-2.example.net",
      });
      expect(await store().createPeer(newPeer("peer_3", "DESK"))).toEqual({
        ok: false,
        reason: "name_taken",
      });
    });

    it("lists live pairings oldest first and counts them", async () => {
      expect(await store().listPeers()).toEqual([]);
      expect(await store().countPeers()).toBe(0);
      await pair(newPeer("peer_c", "laptop", { createdAt: T0 + 3 }));
      await pair(newPeer("peer_a", "desk", { createdAt: T0 + 1 }));
      await pair(newPeer("peer_b", "build-box", { createdAt: T0 + 2 }));
      await pair(newPeer("peer_d", "ci", { createdAt: T0 + 4 }));
      expect(ids(await store().listPeers())).toEqual(["peer_a", "peer_b", "peer_c", "peer_d"]);
      expect(await store().countPeers()).toBe(4);

      await store().removePeer({ name: "build-box", at: T0 + 5 });
      expect(ids(await store().listPeers())).toEqual(["peer_a", "peer_c", "peer_d"]);
      expect(await store().countPeers()).toBe(3);
    });

    it("updates the url, the token and the level, each on its own, and moves updatedAt", async () => {
      const created = await pair(newPeer("peer_1", "Build-Box"));

      const moved = await store().updatePeer({
        name: "build-box",
        patch: { url: "https://build-box.example.net:9443" },
        at: T0 + 10,
      });
      expect(moved).toEqual({ ...created, url: "https://build-box.example.net:9443", updatedAt: T0 + 10 });

      const rekeyed = await store().updatePeer({
        name: "Build-Box",
        patch: { token: "oar_inv_new" },
        at: T0 + 20,
      });
      expect(rekeyed).toEqual({ ...moved, token: "oar_inv_new", updatedAt: T0 + 20 });

      const lowered = await store().updatePeer({ name: "BUILD-BOX", patch: { level: "none" }, at: T0 + 30 });
      expect(lowered).toEqual({ ...rekeyed, level: "none", updatedAt: T0 + 30 });

      const all = await store().updatePeer({
        name: "build-box",
        patch: { url: "https://build.example.net", token: "oar_inv_last", level: "read" },
        at: T0 + 40,
      });
      expect(all).toEqual({
        ...created,
        url: "https://build.example.net",
        token: "oar_inv_last",
        level: "read",
        updatedAt: T0 + 40,
      });

      const touched = await store().updatePeer({ name: "build-box", patch: {}, at: T0 + 50 });
      expect(touched).toEqual({ ...all, updatedAt: T0 + 50 });
      expect(await store().getPeer("build-box")).toEqual(touched);
    });

    it("keeps what the peer said in an update of its pairing", async () => {
      await pair(newPeer("peer_1", "desk"));
      await store().recordPeerSeen({ name: "desk", version: "0.3.1", features: ["replay"], at: T0 + 1 });
      await store().recordPeerLost({ name: "desk", at: T0 + 2 });
      expect(
        await store().updatePeer({ name: "desk", patch: { level: "prompt" }, at: T0 + 3 }),
      ).toMatchObject({
        level: "prompt",
        version: "0.3.1",
        features: ["replay"],
        lastSeenAt: T0 + 1,
        linkLostAt: T0 + 2,
        updatedAt: T0 + 3,
      });
    });

    it("updates nothing for an unknown or removed pairing", async () => {
      await pair(newPeer("peer_1", "desk"));
      await pair(newPeer("peer_2", "laptop"));
      await store().removePeer({ name: "laptop", at: T0 + 1 });
      expect(
        await store().updatePeer({ name: "build-box", patch: { level: "read" }, at: T0 + 2 }),
      ).toBeNull();
      expect(await store().updatePeer({ name: "laptop", patch: { level: "read" }, at: T0 + 2 })).toBeNull();
      expect(await store().getPeer("laptop")).toBeNull();
      expect(await store().getPeer("desk")).toMatchObject({ level: "full", updatedAt: T0 });
    });

    it("records what the peer said at its last answer", async () => {
      const created = await pair(newPeer("peer_1", "Build-Box"));
      await store().recordPeerSeen({
        name: "build-box",
        version: "0.3.1",
        features: ["replay", "questions"],
        at: T0 + 10,
      });
      const seen = { ...created, version: "0.3.1", features: ["replay", "questions"], lastSeenAt: T0 + 10 };
      expect(await store().getPeer("Build-Box")).toEqual(seen);

      // A later answer replaces both, an empty feature list included; the pairing itself is unchanged.
      await store().recordPeerSeen({ name: "BUILD-BOX", version: "0.4.0", features: [], at: T0 + 20 });
      expect(await store().getPeer("build-box")).toEqual({
        ...seen,
        version: "0.4.0",
        features: [],
        lastSeenAt: T0 + 20,
      });
    });

    it("keeps the name the peer gives itself, until it says another", async () => {
      const created = await pair(newPeer("peer_1", "workstation"));
      await store().recordPeerSeen({
        name: "workstation",
        remoteName: "desk",
        version: "1",
        features: [],
        at: T0 + 1,
      });
      expect(await store().getPeer("workstation")).toMatchObject({ name: "workstation", remoteName: "desk" });
      await store().recordPeerSeen({ name: "workstation", version: "2", features: [], at: T0 + 2 });
      expect(await store().getPeer("workstation")).toEqual({
        ...created,
        remoteName: "desk",
        version: "2",
        features: [],
        lastSeenAt: T0 + 2,
      });
    });

    it("records a lost link and keeps when the peer last answered", async () => {
      const created = await pair(newPeer("peer_1", "desk"));
      await store().recordPeerLost({ name: "Desk", at: T0 + 5 });
      expect(await store().getPeer("desk")).toEqual({ ...created, linkLostAt: T0 + 5 });

      await store().recordPeerSeen({ name: "desk", version: "0.3.1", features: ["replay"], at: T0 + 10 });
      await store().recordPeerLost({ name: "desk", at: T0 + 20 });
      const lost = {
        ...created,
        version: "0.3.1",
        features: ["replay"],
        lastSeenAt: T0 + 10,
        linkLostAt: T0 + 20,
      };
      expect(await store().getPeer("desk")).toEqual(lost);

      // An answer after the loss keeps the time of the loss: the two times tell which came last.
      await store().recordPeerSeen({ name: "desk", version: "0.3.1", features: ["replay"], at: T0 + 30 });
      expect(await store().getPeer("desk")).toEqual({ ...lost, lastSeenAt: T0 + 30 });
    });

    it("ignores an answer or a lost link of an unknown or removed pairing", async () => {
      const kept = await pair(newPeer("peer_1", "desk"));
      await pair(newPeer("peer_2", "laptop"));
      await store().removePeer({ name: "laptop", at: T0 + 1 });
      for (const name of ["build-box", "laptop"]) {
        await expect(
          store().recordPeerSeen({ name, version: "0.3.1", features: ["replay"], at: T0 + 2 }),
        ).resolves.toBeUndefined();
        await expect(store().recordPeerLost({ name, at: T0 + 3 })).resolves.toBeUndefined();
      }
      expect(await store().getPeer("laptop")).toBeNull();
      expect(await store().listPeers()).toEqual([kept]);
    });

    it("removes a live pairing once", async () => {
      await pair(newPeer("peer_1", "Build-Box"));
      expect(await store().removePeer({ name: "build-box", at: T0 + 1 })).toBe(true);
      expect(await store().removePeer({ name: "Build-Box", at: T0 + 2 })).toBe(false);
      expect(await store().removePeer({ name: "desk", at: T0 + 2 })).toBe(false);
    });

    it("hides a removed pairing from every read", async () => {
      const kept = await pair(newPeer("peer_1", "desk", { createdAt: T0 }));
      await pair(newPeer("peer_2", "Build-Box", { createdAt: T0 + 1 }));
      await store().recordPeerSeen({ name: "build-box", version: "0.3.1", features: ["replay"], at: T0 + 2 });
      expect(await store().removePeer({ name: "BUILD-BOX", at: T0 + 3 })).toBe(true);

      for (const name of ["Build-Box", "build-box"]) {
        expect(await store().getPeer(name)).toBeNull();
      }
      expect(await store().listPeers()).toEqual([kept]);
      expect(await store().countPeers()).toBe(1);
      expect(
        await store().updatePeer({ name: "build-box", patch: { url: "https://x.example.net" }, at: T0 + 4 }),
      ).toBeNull();
      expect(await store().removePeer({ name: "build-box", at: T0 + 4 })).toBe(false);
    });
  });
}
