import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@oar/core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createRelay } from "../src/compose";
import { loadConfig } from "../src/config";

const OWNER = "owner-token-for-roots-0123456789";

// A real disk: <tmp>/root/app, <tmp>/outside, <tmp>/root/escape → <tmp>/outside, <tmp>/root/inner → <tmp>/root/app.
let base: string;
let root: string;
let realRoot: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "oar-roots-"));
  root = join(base, "root");
  await mkdir(join(root, "app"), { recursive: true });
  await mkdir(join(base, "outside", "deeper"), { recursive: true });
  await symlink(join(base, "outside"), join(root, "escape"));
  await symlink(join(root, "app"), join(root, "inner"));
  realRoot = await realpath(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function startRelay(env: Readonly<Record<string, string>> = {}) {
  const config = loadConfig({
    RELAY_NAME: "desk",
    RELAY_OWNER_TOKEN: OWNER,
    RELAY_DATA_DIR: "memory://",
    ...env,
  });
  const relay = await createRelay(config, { logger: silentLogger });
  onTestFinished(() => relay.close());
  const request = async (method: string, path: string, body?: unknown, token = OWNER) => {
    const response = await relay.app.request(path, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const sessionCount = async () =>
    ((await request("GET", "/v1/owner/sessions?scope=all")).body.sessions as unknown[]).length;
  return { request, sessionCount };
}

describe("RELAY_ALLOWED_ROOTS on a real disk (DESIGN §4, §7, R-UPD-21)", { timeout: 30_000 }, () => {
  it("owner POST/PATCH: a symlink out of the root, a `..` escape, a prefix trick are refused; nothing changes", async () => {
    const t = await startRelay({ RELAY_ALLOWED_ROOTS: root });
    for (const cwd of [
      join(root, "escape"),
      join(root, "escape", "not", "yet"),
      `${root}/../outside`,
      `${root}2`,
    ]) {
      const refused = await t.request("POST", "/v1/owner/sessions", { cwd });
      expect(refused.status, cwd).toBe(400);
      expect(refused.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
      expect(refused.body.error).toContain(`cwd "${cwd}"`);
      expect(refused.body.error).toContain(
        "may not use. The folder must be one that the relay is allowed to use",
      );
    }
    expect(await t.sessionCount()).toBe(0);

    const created = await t.request("POST", "/v1/owner/sessions", {
      cwd: join(root, "inner"),
      title: "Shop",
    });
    expect(created.status).toBe(200);
    expect(created.body.cwd).toBe(join(realRoot, "app"));
    const id = created.body.id as string;
    const moved = await t.request("PATCH", `/v1/owner/sessions/${id}`, {
      cwd: join(root, "escape"),
      title: "Moved",
    });
    expect(moved).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect((await t.request("GET", `/v1/owner/sessions/${id}`)).body).toMatchObject({
      cwd: join(realRoot, "app"),
      title: "Shop",
    });
  });

  it("agent create_session/update_session: an outside folder is refused before any card", async () => {
    const t = await startRelay({ RELAY_ALLOWED_ROOTS: root });
    const caller = (await t.request("POST", "/v1/owner/sessions", { title: "Planner" })).body.id as string;
    const other = (await t.request("POST", "/v1/owner/sessions", { title: "Other" })).body.id as string;
    const token = (await t.request("POST", `/v1/owner/sessions/${caller}/token`)).body.token as string;
    const before = await t.sessionCount();
    const created = await t.request(
      "POST",
      "/v1/tool",
      { action: "create_session", relay: "this", text: "hi", cwd: join(root, "escape", "deeper") },
      token,
    );
    expect(created).toMatchObject({ status: 200, body: { ok: false, code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect(created.body.error).toContain(
      `(it resolves to "${join(await realpath(join(base, "outside")), "deeper")}")`,
    );
    const updated = await t.request(
      "POST",
      "/v1/tool",
      { action: "update_session", relay: "this", session: other, cwd: join(root, "escape") },
      token,
    );
    expect(updated).toMatchObject({ status: 200, body: { ok: false, code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect(updated.body.error).toMatch(/may not use\. .* Nothing was changed\.$/);
    expect((await t.request("GET", "/v1/owner/cards")).body).toEqual({ cards: [] });
    expect(await t.sessionCount()).toBe(before);
  });

  it("GET /v1/owner/settings shows the roots as real paths; PATCH refuses them as read-only", async () => {
    const t = await startRelay({ RELAY_ALLOWED_ROOTS: `${join(root, "inner")}:${root}` });
    const settings = await t.request("GET", "/v1/owner/settings");
    expect(settings.body.allowedRoots).toEqual([join(realRoot, "app"), realRoot]);
    // The first root is the default folder of new sessions.
    expect((await t.request("POST", "/v1/owner/sessions", {})).body.cwd).toBe(join(realRoot, "app"));
    const patch = await t.request("PATCH", "/v1/owner/settings", { allowedRoots: ["/"] });
    expect(patch).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect(patch.body.error).toMatch(/^allowedRoots: read-only: .*RELAY_ALLOWED_ROOTS/);
    expect((await t.request("GET", "/v1/owner/settings")).body).toEqual(settings.body);
  });

  it("by default the roots are where the relay starts and the user's home; /tmp/../../etc is refused", async () => {
    const t = await startRelay();
    const roots = [...new Set([await realpath(process.cwd()), await realpath(homedir())])];
    expect((await t.request("GET", "/v1/owner/settings")).body.allowedRoots).toEqual(roots);
    expect(roots.some((folder) => folder === "/" || folder === "/etc" || folder.startsWith("/etc/"))).toBe(
      false,
    );
    const refused = await t.request("POST", "/v1/owner/sessions", { cwd: "/tmp/../../etc" });
    expect(refused).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    expect(await t.sessionCount()).toBe(0);
  });
});
