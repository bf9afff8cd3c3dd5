import { FakeClock } from "@oar/core/testing";
import { createMemoryUnlockStore } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import { cachingPeerStore, PEERS_CACHE_MS } from "../src/pairing/peer-cache";
import { MENTIONS_CACHE_MS, rememberingMentions } from "../src/pairing/unlock-cache";
import { createMemoryPeerStore } from "../src/testing";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const peer = (name: string) => ({
  id: `peer_${name}`,
  name,
  url: `https://${name}.test`,
  level: "full" as const,
  token: "t",
  createdAt: T0,
});

describe("pairings read from memory (DESIGN §9)", () => {
  it("sees its own pairing changes at once and another process's after PEERS_CACHE_MS", async () => {
    const clock = new FakeClock(T0);
    const shared = createMemoryPeerStore();
    const here = cachingPeerStore(shared, { clock });
    expect(await here.countPeers()).toBe(0);
    await here.createPeer(peer("build-box"));
    expect((await here.getPeer("BUILD-BOX"))?.name).toBe("build-box");
    // Another process pairs through the shared store.
    await shared.createPeer(peer("ci"));
    expect(await here.countPeers()).toBe(1);
    await clock.advanceAsync(PEERS_CACHE_MS);
    expect((await here.listPeers()).map((p) => p.name)).toEqual(["build-box", "ci"]);
    await here.removePeer({ name: "ci", at: T0 });
    expect(await here.getPeer("ci")).toBeNull();
  });
});

describe("mention unlocks remembered (R-LOCK-03, DESIGN §9)", () => {
  it("remembers a mention for MENTIONS_CACHE_MS, reads an agent unlock or a lock each time, and sees a removal by another process after that", async () => {
    const clock = new FakeClock(T0);
    const store = createMemoryUnlockStore();
    let reads = 0;
    const counted = {
      ...store,
      getRelayUnlock: (key: Parameters<typeof store.getRelayUnlock>[0]) => {
        reads++;
        return store.getRelayUnlock(key);
      },
    };
    const unlocks = rememberingMentions(counted, { clock });
    const key = { conversation: "ses_a", relay: "build-box" };
    expect(await unlocks.getRelayUnlock(key)).toBeNull();
    await store.unlockRelay({ ...key, how: "agent", at: T0 });
    expect(await unlocks.getRelayUnlock(key)).toMatchObject({ how: "agent" });
    await unlocks.unlockRelay({ ...key, how: "mention", at: T0 + 1 });
    expect(await unlocks.getRelayUnlock(key)).toMatchObject({ how: "mention" });
    const before = reads;
    expect(await unlocks.getRelayUnlock(key)).toMatchObject({ how: "mention" });
    expect(reads).toBe(before);
    expect(await unlocks.getRelayUnlock({ conversation: "ses_b", relay: "build-box" })).toBeNull();
    // Removing the pairing here ends the remembered mention at once.
    expect(await unlocks.forgetRelay("Build-Box")).toBe(1);
    expect(await unlocks.getRelayUnlock(key)).toBeNull();
    // Another process removes the pairing: the memory of the mention lasts no longer than its TTL.
    await unlocks.unlockRelay({ ...key, how: "mention", at: T0 + 2 });
    expect(await unlocks.getRelayUnlock(key)).toMatchObject({ how: "mention" });
    await store.forgetRelay("build-box");
    clock.advance(MENTIONS_CACHE_MS);
    expect(await unlocks.getRelayUnlock(key)).toBeNull();
  });
});
