import { describe, expect, it } from "vitest";
import { resolveFolder } from "../../src/settings/allowed-folders";
import { fakeFolders } from "../fake-folders";
import { createHarness, type Harness, refusal, settle, track } from "./harness";

// /srv/app holds a link that leaves it (out → /etc) and one that stays inside (current → releases/7);
// /home/me/work is itself a link to /data/work.
const FOLDERS = fakeFolders({
  dirs: ["/srv/app/src", "/srv/app/releases/7", "/srv/app2", "/etc/ssh", "/data/work/site", "/home/me/notes"],
  links: {
    "/srv/app/out": "/etc",
    "/srv/app/current": "/srv/app/releases/7",
    "/home/me/work": "/data/work",
  },
});

const ROOTS = ["/srv/app"];

async function harness(options: { readonly approvalCards?: boolean; readonly callerCwd?: string } = {}) {
  return createHarness({
    allowedRoots: ROOTS,
    folders: FOLDERS,
    ...(options.approvalCards === undefined ? {} : { approvalCards: options.approvalCards }),
    ...(options.callerCwd === undefined ? {} : { caller: { cwd: options.callerCwd } }),
  });
}

function create(cwd: string) {
  return { action: "create_session", relay: "this", text: "hi", wait_seconds: 0, cwd } as const;
}

async function sessionCount(h: Harness): Promise<number> {
  return (await h.stores.sessions.listSessions({ scope: "all" })).length;
}

describe("resolveFolder: the folder a session would really work in (DESIGN §7)", () => {
  it("resolves `..` and `.`, follows symlinks where the path exists, and appends what does not exist yet", () => {
    expect(resolveFolder(FOLDERS, "/srv/app/../../etc")).toBe("/etc");
    expect(resolveFolder(FOLDERS, "/srv/app/./src/")).toBe("/srv/app/src");
    expect(resolveFolder(FOLDERS, "/srv/app/out/ssh")).toBe("/etc/ssh");
    expect(resolveFolder(FOLDERS, "/srv/app/out/new/dir")).toBe("/etc/new/dir");
    expect(resolveFolder(FOLDERS, "/srv/app/current/logs")).toBe("/srv/app/releases/7/logs");
    expect(resolveFolder(FOLDERS, "/nowhere/at/all")).toBe("/nowhere/at/all");
    expect(resolveFolder(FOLDERS, "srv/app")).toBeNull();
  });
});

describe("create_session: the folder stays inside the owner's roots (DESIGN §7, R-UPD-21)", () => {
  it("R-UPD-21: a `..` escape is refused with the spec's wording and nothing is created", async () => {
    const h = await harness();
    const before = await sessionCount(h);
    expect(refusal(await h.call(create("/srv/app/../../etc")))).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error:
        'cwd "/srv/app/../../etc" (it resolves to "/etc") is a folder relay "desk" may not use. The folder must be one that the relay is allowed to use: /srv/app, or a folder below it. Nothing was created.',
    });
    expect(await sessionCount(h)).toBe(before);
  });

  it("DESIGN §7: a symlink inside a root that points outside it is refused, below it too", async () => {
    const h = await harness();
    const before = await sessionCount(h);
    const existing = refusal(await h.call(create("/srv/app/out/ssh")));
    expect(existing.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(existing.error).toContain(
      'cwd "/srv/app/out/ssh" (it resolves to "/etc/ssh") is a folder relay "desk" may not use',
    );
    const notYet = refusal(await h.call(create("/srv/app/out/new/dir")));
    expect(notYet.error).toContain('(it resolves to "/etc/new/dir")');
    expect(await sessionCount(h)).toBe(before);
  });

  it("DESIGN §7: /srv/app2 is not under /srv/app", async () => {
    const h = await harness();
    const before = await sessionCount(h);
    expect(refusal(await h.call(create("/srv/app2"))).error).toMatch(
      /^cwd "\/srv\/app2" is a folder relay "desk" may not use\./,
    );
    expect(await sessionCount(h)).toBe(before);
    const root = await h.ok(create("/srv/app"));
    expect((await h.session(root.session as string)).cwd).toBe("/srv/app");
  });

  it("DESIGN §7: the stored folder is the real path; one that does not exist yet is kept as written", async () => {
    const h = await harness();
    const linked = await h.ok(create("/srv/app/current/logs"));
    expect((await h.session(linked.session as string)).cwd).toBe("/srv/app/releases/7/logs");
    const fresh = await h.ok(create("/srv/app/new/../later/./sub"));
    expect((await h.session(fresh.session as string)).cwd).toBe("/srv/app/later/sub");
  });

  it("DESIGN §4: a root that is itself a symlink is checked, and is the default folder, as its real path", async () => {
    const h = await createHarness({ allowedRoots: ["/home/me/work", "/srv/app"], folders: FOLDERS });
    const inside = await h.ok(create("/data/work/site"));
    expect((await h.session(inside.session as string)).cwd).toBe("/data/work/site");
    const viaLink = await h.ok(create("/home/me/work/site"));
    expect((await h.session(viaLink.session as string)).cwd).toBe("/data/work/site");
    expect(refusal(await h.call(create("/home/me/notes"))).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    const relayInfo = await h.ok({ action: "relay_info", relay: "this" });
    expect(relayInfo.folders).toMatchObject({ default: "/data/work" });
  });

  it("R-CRE-03, DESIGN §7: an inherited folder outside the roots falls back to the default folder", async () => {
    const h = await harness({ callerCwd: "/srv/app/out/ssh" });
    const result = await h.ok({ action: "create_session", relay: "this", text: "hi", wait_seconds: 0 });
    expect((await h.session(result.session as string)).cwd).toBe("/srv/app");
  });
});

describe("update_session: the folder stays inside the owner's roots (R-UPD-14, R-UPD-21)", () => {
  it("R-UPD-14: a symlink escape or a prefix trick is refused and nothing is changed", async () => {
    const h = await harness();
    const target = await h.agentSession({ cwd: "/srv/app/src" });
    for (const cwd of ["/srv/app/out", "/srv/app2/src", "/srv/app/src/../../app2"]) {
      const result = refusal(
        await h.call({ action: "update_session", relay: "this", session: target.id, cwd, title: "Moved" }),
      );
      expect(result.code).toBe("REMOTE_RELAY_INVALID_INPUT");
      expect(result.error).toContain(
        "may not use. The folder must be one that the relay is allowed to use: /srv/app",
      );
      expect(result.error).toMatch(/Nothing was changed\.$/);
    }
    expect(await h.session(target.id)).toMatchObject({ cwd: "/srv/app/src", title: target.title });
  });

  it("R-UPD-21: a folder through a link that stays inside is stored as its real path", async () => {
    const h = await harness();
    const target = await h.agentSession({ cwd: "/srv/app/src" });
    const result = await h.ok({
      action: "update_session",
      relay: "this",
      session: target.id,
      cwd: "/srv/app/current",
    });
    expect(result).toMatchObject({ changed: ["cwd"], settings: { cwd: "/srv/app/releases/7" } });
  });
});

describe("an outside folder is refused before any approval card (R-UPD-14, DESIGN GAP-04)", () => {
  async function inTurn(h: Harness): Promise<void> {
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
  }

  it("R-UI-01(a): the first create_session with an outside folder raises no card", async () => {
    const h = await harness({ approvalCards: true });
    await inTurn(h);
    const before = await sessionCount(h);
    const call = track(h.call(create("/srv/app/out")));
    await settle(20);
    expect(await h.stores.cards.listCards()).toEqual([]);
    expect(call.settled()).toBe(true);
    expect(refusal(await call.promise).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(await sessionCount(h)).toBe(before);
  });

  it("R-UPD-10/14: update_session of another session with an outside folder raises no card", async () => {
    const h = await harness({ approvalCards: true });
    await inTurn(h);
    const other = await h.ownerSession({ cwd: "/srv/app/src" });
    const call = track(
      h.call({ action: "update_session", relay: "this", session: other.id, cwd: "/srv/app/out" }),
    );
    await settle(20);
    expect(await h.stores.cards.listCards()).toEqual([]);
    expect(call.settled()).toBe(true);
    expect(refusal(await call.promise).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect((await h.session(other.id)).cwd).toBe("/srv/app/src");
  });
});

describe("relay_info folders (R-RINFO-01, DESIGN §7)", () => {
  it("does not offer a recent folder that leads outside the roots", async () => {
    const h = await harness();
    h.clock.advance(1000);
    await h.ownerSession({ cwd: "/srv/app/out/ssh" });
    await h.ownerSession({ cwd: "/srv/app/src" });
    const result = await h.ok({ action: "relay_info", relay: "this" });
    expect(result.folders).toEqual({ default: "/srv/app", recent: ["/srv/app/src", "/srv/app"] });
  });
});
