import { describe, expect, it } from "vitest";
import { OWNER_TOKEN } from "../harness";
import { bearer, call, createNetwork, externalCaller, invite, ownerSession, pair } from "./network";

const PEER_CALL = {
  call: { action: "relay_info", relay: "this" },
  origin: { relay: "desk", session: "ses_x", title: "Lead", model: "script-1", hops: 1, userUnlocked: true },
};

async function expectAuthRefusal(response: Response, what: string): Promise<void> {
  expect(response.status, what).toBe(401);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body, what).toMatchObject({ ok: false, code: "REMOTE_RELAY_AUTH" });
  expect(typeof body.error, what).toBe("string");
}

describe("the three token kinds are never interchangeable (DESIGN §4, §7)", { timeout: 60_000 }, () => {
  it("an agent token, the owner token, another relay's invite, an unknown or a missing token on /v1/peer/* are 401 REMOTE_RELAY_AUTH", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const agent = await box.agentToken(await ownerSession(box, "Deploy"));
    const deskInvite = await invite(desk);
    const tokens: Record<string, string | undefined> = {
      "agent token": agent,
      "owner token": OWNER_TOKEN,
      "another relay's invite": deskInvite,
      "unknown invite": "oar_invite_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      missing: undefined,
    };
    for (const [what, token] of Object.entries(tokens)) {
      await expectAuthRefusal(
        await bearer(box, "GET", "/v1/peer/info", token),
        `${what} on GET /v1/peer/info`,
      );
      await expectAuthRefusal(
        await bearer(box, "POST", "/v1/peer/tool", token, PEER_CALL),
        `${what} on POST /v1/peer/tool`,
      );
    }
    // Nothing ran: no session was created or touched on B.
    const { sessions } = await box.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions");
    expect(sessions).toHaveLength(1);
  });

  it("an invite token is refused (401) on the agent surface and the owner surface", async () => {
    const net = createNetwork();
    const box = await net.relay("build-box");
    const token = await invite(box);
    const routes: [string, string, unknown?][] = [
      ["POST", "/v1/tool", { action: "list_relays" }],
      ["POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
      ["GET", "/v1/owner/sessions"],
      ["GET", "/v1/owner/peers"],
      ["POST", "/v1/owner/peers/invites"],
      ["GET", "/v1/owner/settings"],
      ["GET", "/v1/owner/cards?status=pending"],
    ];
    for (const [method, path, body] of routes) {
      await expectAuthRefusal(await bearer(box, method, path, token, body), `${method} ${path}`);
    }
    // …and the same invite still works where it belongs.
    expect((await bearer(box, "GET", "/v1/peer/info", token)).status).toBe(200);
  });

  it("every invite is a token of its own; a well-formed call with one is answered, a malformed body is 400", async () => {
    const net = createNetwork();
    const box = await net.relay("build-box");
    const [first, second] = [await invite(box), await invite(box)];
    expect(first).not.toBe(second);
    for (const token of [first, second]) {
      const response = await bearer(box, "POST", "/v1/peer/tool", token, PEER_CALL);
      expect(response.status).toBe(200);
      expect(JSON.parse((await response.text()).trim())).toMatchObject({ ok: true, relay: "build-box" });
    }
    const bad = await bearer(box, "POST", "/v1/peer/tool", first, { call: PEER_CALL.call });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
  });

  it("the owner API never returns a pairing's token: not on create, list, patch, nor in list_relays", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    const texts: string[] = [];
    const created = await desk.owner("POST", "/v1/owner/peers", {
      name: "build-box",
      url: "https://build-box.test",
      token,
    });
    expect(created.status).toBe(200);
    texts.push(await created.text());
    texts.push(await (await desk.owner("GET", "/v1/owner/peers")).text());
    const newToken = await invite(box);
    texts.push(await (await desk.owner("PATCH", "/v1/owner/peers/build-box", { token: newToken })).text());
    texts.push(await (await desk.owner("GET", "/v1/owner/peers")).text());
    const caller = await externalCaller(desk, { mentions: "build-box" });
    texts.push(await (await desk.tool(caller.token, { action: "list_relays" })).text());
    texts.push(await (await desk.tool(caller.token, { action: "relay_info", relay: "build-box" })).text());
    for (const text of texts) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(newToken);
      expect(text).not.toContain("oar_invite_");
      expect(text).not.toMatch(/"token"/);
    }
    expect(JSON.parse(texts[1] ?? "{}")).toEqual({
      peers: [expect.objectContaining({ name: "build-box", online: true })],
    });
  });

  it("a pairing stored with a user name and password (older data) never shows them: not in GET /v1/owner/peers, PATCH, nor list_relays", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await desk.relay.services.storage.stores.peers.createPeer({
      id: "peer_older",
      name: "build-box",
      url: "https://ops:hunter2@build-box.test/relay",
      level: "full",
      token: await invite(box),
      createdAt: Date.now(),
    });
    const caller = await externalCaller(desk, { mentions: "build-box" });
    const texts = [
      await (await desk.owner("GET", "/v1/owner/peers")).text(),
      await (await desk.owner("PATCH", "/v1/owner/peers/build-box", { level: "read" })).text(),
      await (await desk.tool(caller.token, { action: "list_relays" })).text(),
    ];
    for (const text of texts) {
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain("ops@");
    }
    expect(JSON.parse(texts[0] ?? "{}")).toEqual({
      peers: [expect.objectContaining({ name: "build-box", url: "https://build-box.test/relay" })],
    });
    expect(JSON.parse((texts[2] ?? "").trim()).relays).toContainEqual(
      expect.objectContaining({ name: "build-box", url: "https://build-box.test/relay" }),
    );
  });

  it("R-HOP-06: a pairing stored with plain http to a link-local address (older data) is never called", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([
      net.relay("desk"),
      net.relay("build-box", { host: "169.254.10.10:8787" }),
    ]);
    await desk.relay.services.storage.stores.peers.createPeer({
      id: "peer_older",
      name: "lab",
      url: "http://169.254.10.10:8787",
      level: "full",
      token: await invite(box),
      createdAt: Date.now(),
    });
    const caller = await externalCaller(desk, { mentions: "Use lab." });
    const result = await call(desk, caller.token, { action: "list_sessions", relay: "lab" });
    expect(result).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNREACHABLE" });
    expect(String(result.error)).toContain("link-local");
    expect(String(result.error)).toContain("PATCH /v1/owner/peers/lab");
    const [peer] = (
      await desk.ownerJson<{ peers: { online: boolean; problem: string | null }[] }>("GET", "/v1/owner/peers")
    ).peers;
    expect(peer).toMatchObject({ online: false, problem: expect.stringContaining("link-local") });
    expect(net.exchanges.filter((exchange) => exchange.host === "169.254.10.10:8787")).toEqual([]);
  });

  it("R-LOCK-01: a relay paired under the name of a removed pairing starts locked in conversations that had unlocked the old one", async () => {
    const net = createNetwork();
    const [desk, box, ci] = await Promise.all([net.relay("desk"), net.relay("build-box"), net.relay("ci")]);
    await pair(desk, box, { name: "box" });
    const caller = await externalCaller(desk, { mentions: "Use box." });
    expect(await call(desk, caller.token, { action: "list_sessions", relay: "box" })).toMatchObject({
      ok: true,
    });

    await desk.ownerJson("DELETE", "/v1/owner/peers/box");
    await pair(desk, ci, { name: "box" });
    // The owner never named this relay (ci, now paired as "box") in that conversation.
    expect(await call(desk, caller.token, { action: "list_sessions", relay: "box" })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_LOCKED",
    });
  });
});

describe("an invite belongs to the first relay that calls with it (DESIGN §7)", { timeout: 60_000 }, () => {
  it("binds to the caller's relay name; a call naming another relay is 401 and runs nothing", async () => {
    const net = createNetwork();
    const box = await net.relay("build-box");
    const token = await invite(box);
    const asDesk = await bearer(box, "POST", "/v1/peer/tool", token, PEER_CALL);
    expect(asDesk.status).toBe(200);
    const asOther = await bearer(box, "POST", "/v1/peer/tool", token, {
      ...PEER_CALL,
      origin: { ...PEER_CALL.origin, relay: "laptop" },
    });
    await expectAuthRefusal(asOther, "the invite used by desk, presented for laptop");
    expect(await box.ownerJson("GET", "/v1/owner/peers/invites")).toEqual({
      invites: [{ id: expect.stringMatching(/^tok_/), relay: "desk", createdAt: expect.any(String) }],
    });
    // The same relay, in another case, is the same relay.
    const again = await bearer(box, "POST", "/v1/peer/tool", token, {
      ...PEER_CALL,
      origin: { ...PEER_CALL.origin, relay: "DESK" },
    });
    expect(again.status).toBe(200);
  });

  it("the owner revokes an invite: the relay that held it is refused, and its agents get REMOTE_RELAY_AUTH", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const caller = await externalCaller(desk, { mentions: "build-box" });
    expect(await call(desk, caller.token, { action: "usage", relay: "build-box" })).toMatchObject({
      ok: true,
    });
    const { invites } = await box.ownerJson<{ invites: { id: string; relay: string | null }[] }>(
      "GET",
      "/v1/owner/peers/invites",
    );
    expect(invites).toEqual([expect.objectContaining({ relay: "desk" })]);
    expect(await box.ownerJson("DELETE", `/v1/owner/peers/invites/${invites[0]?.id}`)).toEqual({ ok: true });
    expect(await call(desk, caller.token, { action: "usage", relay: "build-box" })).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_AUTH",
    });
    expect(await box.ownerJson("GET", "/v1/owner/peers/invites")).toEqual({ invites: [] });
    const gone = await box.owner("DELETE", `/v1/owner/peers/invites/${invites[0]?.id}`);
    expect(gone.status).toBe(404);
  });
});
