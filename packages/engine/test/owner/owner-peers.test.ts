import { describe, expect, it } from "vitest";
import { createHarness } from "../actions/harness";
import { ownerHarness, refusal } from "./harness";

// The owner verbs themselves (no HTTP in between): every embedder of the engine gets the address
// rule (R-HOP-06, DESIGN §7) and never sees a pairing's credentials.

const TOKEN = "oar_invite_test";

const BAD_ADDRESSES: readonly (readonly [url: string, says: string])[] = [
  ["https://ops:hunter2@build-box.example.com", "credentials do not belong"],
  ["https://ops@build-box.example.com", "credentials do not belong"],
  ["http://169.254.10.10:8787", "link-local"],
  ["http://[fe80::1]:8787", "link-local"],
  ["http://[::ffff:169.254.0.1]", "link-local"],
  ["http://build-box.example.com", "plain http:// is accepted only for loopback and private"],
  ["http://0.0.0.0:8787", "plain http:// is accepted only for loopback and private"],
  ["ftp://10.0.0.1", "must use https://"],
  ["build-box", "is not a URL"],
];

describe("createPeer and patchPeer check the address themselves (R-HOP-06, DESIGN §7)", () => {
  it.each(BAD_ADDRESSES)("createPeer(%s) is refused naming url, and nothing is paired", async (url, says) => {
    const { owner, stores } = await ownerHarness();
    const error = await refusal(
      owner.createPeer({ name: "build-box", url, token: TOKEN, level: "full" }),
      "REMOTE_RELAY_INVALID_INPUT",
    );
    expect(error.message).toMatch(/^url: /);
    expect(error.message).toContain(says);
    expect(error.message).not.toContain("hunter2");
    expect(await stores.peers.listPeers()).toEqual([]);
  });

  it.each(BAD_ADDRESSES)(
    "patchPeer to %s is refused naming url, and the pairing is unchanged",
    async (url, says) => {
      const { owner, stores } = await ownerHarness();
      await owner.createPeer({
        name: "build-box",
        url: "https://build-box.example.com",
        token: TOKEN,
        level: "read",
      });
      const before = await stores.peers.getPeer("build-box");

      const error = await refusal(
        owner.patchPeer("build-box", { url, level: "full" }),
        "REMOTE_RELAY_INVALID_INPUT",
      );
      expect(error.message).toMatch(/^url: /);
      expect(error.message).toContain(says);
      expect(await stores.peers.getPeer("build-box")).toEqual(before);
    },
  );

  it("loopback and private plain http, and any https, are paired", async () => {
    const { owner, stores } = await ownerHarness();
    const urls = [
      "http://127.0.0.1:8787",
      "http://localhost:8787",
      "http://[::1]:8787",
      "http://192.168.1.20:8787",
      "http://[fd12::1]:8787",
      "https://169.254.10.10",
    ];
    for (const [index, url] of urls.entries()) {
      await owner.createPeer({ name: `peer-${index}`, url, token: TOKEN, level: "full" });
    }
    expect((await stores.peers.listPeers()).map((peer) => peer.url)).toEqual(urls);
    await owner.patchPeer("peer-0", { url: "http://10.0.0.7:8787" });
    expect((await stores.peers.getPeer("peer-0"))?.url).toBe("http://10.0.0.7:8787");
  });
});

describe("a pairing stored with credentials (older data) never shows them (DESIGN §7)", () => {
  const STORED = "https://ops:hunter2@build-box.example.com:8443/relay";
  const SHOWN = "https://build-box.example.com:8443/relay";

  it("not in the owner's listPeers, nor in what patchPeer returns", async () => {
    const { owner, stores, clock } = await ownerHarness();
    await stores.peers.createPeer({
      id: "peer_old",
      name: "build-box",
      url: STORED,
      level: "full",
      token: TOKEN,
      createdAt: clock.now(),
    });
    const listed = await owner.listPeers();
    expect(listed).toEqual([expect.objectContaining({ name: "build-box", url: SHOWN })]);
    const patched = await owner.patchPeer("build-box", { level: "read" });
    expect(patched.url).toBe(SHOWN);
    expect(JSON.stringify([listed, patched])).not.toMatch(/hunter2|ops@/);
  });

  it("not in list_relays", async () => {
    const h = await createHarness();
    await h.stores.peers.createPeer({
      id: "peer_old",
      name: "build-box",
      url: STORED,
      level: "full",
      token: TOKEN,
      createdAt: h.clock.now(),
    });
    const result = await h.ok({ action: "list_relays" });
    expect(result.relays).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "build-box", url: SHOWN })]),
    );
    expect(JSON.stringify(result)).not.toMatch(/hunter2|ops@/);
  });
});
