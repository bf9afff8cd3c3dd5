import { describe, expect, it } from "vitest";
import type { TestRelay } from "../harness";
import { createNetwork, invite, listPeers, pair } from "./network";

/** A refused owner call: 400 REMOTE_RELAY_INVALID_INPUT, and its message. */
async function refused(t: TestRelay, method: string, path: string, body?: unknown): Promise<string> {
  const response = await t.owner(method, path, body);
  const json = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(json)).toBe(400);
  expect(json).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
  return String(json.error);
}

describe("pairing over the owner API, refusals (DESIGN §4 pairing, §7)", { timeout: 60_000 }, () => {
  it("R-HOP-06: plain http:// to a public host is refused with 400, on POST and on PATCH, and nothing is paired", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    for (const url of ["http://build-box.test", "http://203.0.113.7:8787", "http://8.8.8.8"]) {
      const message = await refused(desk, "POST", "/v1/owner/peers", { name: "build-box", url, token });
      expect(message, url).toContain("https://");
      expect(message, url).toContain("loopback and private");
    }
    expect(await listPeers(desk)).toEqual([]);

    await pair(desk, box);
    const message = await refused(desk, "PATCH", "/v1/owner/peers/build-box", {
      url: "http://build-box.test",
    });
    expect(message).toContain("https://");
    expect((await listPeers(desk))[0]).toMatchObject({ url: "https://build-box.test" });
  });

  it("R-HOP-06: plain http:// to a link-local address (169.254/16, fe80::/10) is refused on POST and PATCH", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    const linkLocal = [
      "http://169.254.10.10:8787",
      "http://169.254.169.254/",
      "http://2852039166/",
      "http://[fe80::1]:8787",
      "http://[::ffff:169.254.0.1]",
    ];
    for (const url of linkLocal) {
      const message = await refused(desk, "POST", "/v1/owner/peers", { name: "build-box", url, token });
      expect(message, url).toMatch(/^url: /);
      expect(message, url).toContain("link-local");
    }
    expect(await listPeers(desk)).toEqual([]);

    await pair(desk, box);
    for (const url of linkLocal) {
      const message = await refused(desk, "PATCH", "/v1/owner/peers/build-box", { url });
      expect(message, url).toContain("link-local");
    }
    expect((await listPeers(desk))[0]).toMatchObject({ url: "https://build-box.test" });
  });

  it("DESIGN §7: an address with a user name or password is refused on POST and PATCH, and the password is not echoed", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    const withCredentials = [
      "https://ops:hunter2@build-box.test",
      "https://ops@build-box.test",
      "https://:hunter2@build-box.test",
      "http://ops:hunter2@127.0.0.1:8787",
    ];
    for (const url of withCredentials) {
      const message = await refused(desk, "POST", "/v1/owner/peers", { name: "build-box", url, token });
      expect(message, url).toMatch(/^url: credentials do not belong in a paired relay's address/);
      expect(message, url).toContain("invite token is the credential");
      expect(message, url).not.toContain("hunter2");
    }
    expect(await listPeers(desk)).toEqual([]);

    await pair(desk, box);
    for (const url of withCredentials) {
      const message = await refused(desk, "PATCH", "/v1/owner/peers/build-box", { url });
      expect(message, url).toContain("credentials do not belong");
    }
    expect((await listPeers(desk))[0]).toMatchObject({ url: "https://build-box.test" });
  });

  it("an address that is not an http(s) URL is refused with 400 naming url", async () => {
    const net = createNetwork();
    const desk = await net.relay("desk");
    for (const url of ["build-box.test", "ftp://build-box.test", "file:///etc/passwd", ""]) {
      const message = await refused(desk, "POST", "/v1/owner/peers", { name: "build-box", url, token: "t" });
      expect(message, url).toMatch(/^url: /);
    }
    expect(await listPeers(desk)).toEqual([]);
  });

  it('R-RLY-02: this relay\'s own name (any case) and "this" cannot name a paired relay', async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    for (const name of ["desk", "DESK", "Desk"]) {
      const message = await refused(desk, "POST", "/v1/owner/peers", {
        name,
        url: "https://build-box.test",
        token,
      });
      expect(message, name).toContain("own name");
    }
    for (const name of ["this", "THIS"]) {
      const message = await refused(desk, "POST", "/v1/owner/peers", {
        name,
        url: "https://build-box.test",
        token,
      });
      expect(message, name).toContain('"this" always means this relay');
    }
    expect(await listPeers(desk)).toEqual([]);
  });

  it("a name already paired (in any case) is refused with 400, and the first pairing is unchanged", async () => {
    const net = createNetwork();
    const [desk, box, ci] = await Promise.all([net.relay("desk"), net.relay("build-box"), net.relay("ci")]);
    const first = await pair(desk, box);
    for (const name of ["build-box", "Build-Box"]) {
      const message = await refused(desk, "POST", "/v1/owner/peers", {
        name,
        url: "https://ci.test",
        token: await invite(ci),
        level: "read",
      });
      expect(message, name).toContain("already paired");
      expect(message, name).toContain("PATCH /v1/owner/peers/");
    }
    expect(await listPeers(desk)).toEqual([first]);
  });

  it("a bad level, a bad name, a missing field or an unknown field is refused with 400 naming the field", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    const token = await invite(box);
    const good = { name: "build-box", url: "https://build-box.test", token };

    expect(await refused(desk, "POST", "/v1/owner/peers", { ...good, level: "admin" })).toMatch(/^level: /);
    expect(await refused(desk, "POST", "/v1/owner/peers", { ...good, level: "Full" })).toMatch(/^level: /);
    expect(await refused(desk, "POST", "/v1/owner/peers", { ...good, name: "build box" })).toMatch(/^name: /);
    expect(await refused(desk, "POST", "/v1/owner/peers", { ...good, name: "-box" })).toMatch(/^name: /);
    expect(await refused(desk, "POST", "/v1/owner/peers", { ...good, token: "" })).toMatch(/^token: /);
    expect(await refused(desk, "POST", "/v1/owner/peers", { name: "build-box", url: good.url })).toMatch(
      /^token: /,
    );
    expect(await refused(desk, "POST", "/v1/owner/peers", { ...good, secret: "x", online: true })).toBe(
      "body does not take: secret, online",
    );
    expect(await listPeers(desk)).toEqual([]);

    await pair(desk, box);
    expect(await refused(desk, "PATCH", "/v1/owner/peers/build-box", { level: "admin" })).toMatch(/^level: /);
    expect(await refused(desk, "PATCH", "/v1/owner/peers/build-box", { name: "other" })).toMatch(
      /^body does not take: name/,
    );
    expect(await refused(desk, "PATCH", "/v1/owner/peers/build-box", {})).toContain("names no field");
    expect((await listPeers(desk))[0]).toMatchObject({ name: "build-box", level: "full" });
  });

  it("PATCH and DELETE of a name that is not paired are 404 REMOTE_RELAY_NOT_FOUND", async () => {
    const net = createNetwork();
    const desk = await net.relay("desk");
    for (const [method, body] of [
      ["PATCH", { level: "read" }],
      ["DELETE", undefined],
    ] as const) {
      const response = await desk.owner(method, "/v1/owner/peers/build-box", body);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_NOT_FOUND",
        error: 'No paired relay named "build-box" on this relay.',
      });
    }
  });
});
