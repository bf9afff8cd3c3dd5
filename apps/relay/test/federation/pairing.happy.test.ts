import type { OwnerPeer as OwnerPeerView } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { RELAY_VERSION } from "../../src/version";
import { bearer, call, createNetwork, externalCaller, invite, listPeers, pair } from "./network";

describe("pairing over the owner API (DESIGN §4 pairing), happy paths", { timeout: 60_000 }, () => {
  it("R-PERM-02: an invite of B pairs A with B at Full; B answers, so the pairing is online with B's version", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    expect(token).toMatch(/^oar_invite_/);

    const created = await desk.ownerJson<OwnerPeerView>("POST", "/v1/owner/peers", {
      name: "build-box",
      url: "https://build-box.test",
      token,
    });
    expect(created).toEqual({
      name: "build-box",
      url: "https://build-box.test",
      level: "full",
      online: true,
      version: RELAY_VERSION,
      problem: null,
    });
    // It asked B at once who it is (GET /v1/peer/info with the invite).
    expect(net.exchanges.map((e) => [e.from, e.host, e.method, e.path])).toContainEqual([
      "desk",
      "build-box.test",
      "GET",
      "/v1/peer/info",
    ]);
    expect(await listPeers(desk)).toEqual([created]);
  });

  it("DESIGN §4: GET /v1/peer/info with an invite names the relay, its version and its features", async () => {
    const net = createNetwork();
    const box = await net.relay("build-box");
    const response = await bearer(box, "GET", "/v1/peer/info", await invite(box));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: "build-box",
      version: RELAY_VERSION,
      // R-RTO-08, R-BILL-05, R-CGRP-07(d), R-UPD-28, R-QCHK-06, R-PAIR-05: what paired relays gate calls on.
      features: [
        "tool",
        "preflight",
        "read_task_output",
        "billing_switch",
        "create_session_group",
        "update_session",
        "session_questions",
        "subscriptions",
      ],
    });
  });

  it("a relay that does not answer is paired all the same, offline and without a version", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    net.down.add("build-box.test");
    const created = await pair(desk, box);
    expect(created).toMatchObject({ name: "build-box", level: "full", online: false, version: null });
    expect(await listPeers(desk)).toEqual([created]);
  });

  it("PATCH changes the level, the address and the token; list_relays reports the level (R-PERM-06)", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box", { host: "box.lan" })]);
    await pair(desk, box, { url: "https://box.lan" });
    const caller = await externalCaller(desk);

    const read = await desk.ownerJson<OwnerPeerView>("PATCH", "/v1/owner/peers/build-box", { level: "read" });
    expect(read).toMatchObject({ name: "build-box", level: "read", online: true });
    expect(await call(desk, caller.token, { action: "list_relays" })).toMatchObject({
      ok: true,
      relays: [
        { name: "desk", self: true, permission: "full" },
        { name: "build-box", url: "https://box.lan", permission: "read", unlocked: false },
      ],
    });

    // A new address and token are tried at once (the name is what agents use; it does not change).
    const moved = await desk.ownerJson<OwnerPeerView>("PATCH", "/v1/owner/peers/BUILD-BOX", {
      url: "https://nowhere.test",
      token: await invite(box),
    });
    expect(moved).toMatchObject({
      name: "build-box",
      url: "https://nowhere.test",
      level: "read",
      online: false,
    });
    const back = await desk.ownerJson<OwnerPeerView>("PATCH", "/v1/owner/peers/build-box", {
      url: "https://box.lan",
      level: "prompt",
    });
    expect(back).toEqual({
      name: "build-box",
      url: "https://box.lan",
      level: "prompt",
      online: true,
      version: RELAY_VERSION,
      problem: null,
    });
    expect(await listPeers(desk)).toEqual([back]);
  });

  it("DELETE removes the pairing: agents no longer know the name (REMOTE_RELAY_NOT_FOUND), PATCH and DELETE are 404", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const caller = await externalCaller(desk, { mentions: "Look at build-box." });
    expect(await call(desk, caller.token, { action: "relay_info", relay: "build-box" })).toMatchObject({
      ok: true,
      relay: "build-box",
    });

    expect(await desk.ownerJson("DELETE", "/v1/owner/peers/build-box")).toEqual({ ok: true });
    expect(await listPeers(desk)).toEqual([]);
    for (const relay of ["build-box", "build-box.test"]) {
      const refused = await call(desk, caller.token, { action: "relay_info", relay });
      expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
      expect(String(refused.error)).toContain(`"${relay}"`);
    }
    const listed = await call(desk, caller.token, { action: "list_relays" });
    expect(listed).toMatchObject({ ok: true, relays: [{ name: "desk", self: true }] });
    expect((listed.relays as unknown[]).length).toBe(1);

    for (const [method, body] of [
      ["PATCH", { level: "read" }],
      ["DELETE", undefined],
    ] as const) {
      const response = await desk.owner(method, "/v1/owner/peers/build-box", body);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    }
    // The name is free again.
    expect(await pair(desk, box)).toMatchObject({ name: "build-box", online: true });
  });

  it("R-HOP-06: plain http:// is accepted for loopback and private addresses", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const urls = [
      "http://127.0.0.1:8787",
      "http://localhost:8787",
      "http://192.168.1.20:8787",
      "http://10.0.0.5",
      "http://172.16.4.2",
      "http://[::1]:8787",
    ];
    for (const [index, url] of urls.entries()) {
      const created = await pair(desk, box, { name: `lan-${index}`, url });
      // Nothing listens there on this network: paired, offline.
      expect(created, url).toMatchObject({ name: `lan-${index}`, url, online: false });
    }
    expect((await listPeers(desk)).map((peer) => peer.name)).toEqual(urls.map((_, index) => `lan-${index}`));
  });
});
