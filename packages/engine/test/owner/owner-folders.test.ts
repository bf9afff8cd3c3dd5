import { describe, expect, it } from "vitest";
import { fakeFolders } from "../fake-folders";
import { ownerHarness, refusal } from "./harness";

// /srv/app holds a link that leaves it (out → /etc) and one that stays inside (current → releases/7);
// /home/me/work is itself a link to /data/work.
const FOLDERS = fakeFolders({
  dirs: ["/srv/app/src", "/srv/app/releases/7", "/srv/app2", "/etc/ssh", "/data/work", "/tmp/scratch"],
  links: {
    "/srv/app/out": "/etc",
    "/srv/app/current": "/srv/app/releases/7",
    "/home/me/work": "/data/work",
  },
});

describe("owner API: folders stay inside the owner's roots (DESIGN §7, R-UPD-21)", () => {
  it("POST /sessions: `..`, a symlink escape and a prefix trick are refused with the spec's wording; nothing is created", async () => {
    const { owner } = await ownerHarness({ allowedRoots: ["/tmp", "/srv/app"], folders: FOLDERS });
    const dotdot = await refusal(
      owner.createSession({ cwd: "/tmp/../../etc" }),
      "REMOTE_RELAY_INVALID_INPUT",
    );
    expect(dotdot.message).toBe(
      'cwd "/tmp/../../etc" (it resolves to "/etc") is a folder relay "desk" may not use. The folder must be one that the relay is allowed to use: /tmp, /srv/app, or a folder below one of them. Nothing was created.',
    );
    const link = await refusal(
      owner.createSession({ cwd: "/srv/app/out/ssh" }),
      "REMOTE_RELAY_INVALID_INPUT",
    );
    expect(link.message).toContain('(it resolves to "/etc/ssh") is a folder relay "desk" may not use');
    await refusal(owner.createSession({ cwd: "/srv/app2" }), "REMOTE_RELAY_INVALID_INPUT");
    expect(await owner.listSessions({ scope: "all" })).toEqual([]);
  });

  it("POST /sessions: the stored folder is the real path; the default is the first root's real path", async () => {
    const { owner } = await ownerHarness({ allowedRoots: ["/home/me/work", "/srv/app"], folders: FOLDERS });
    expect((await owner.createSession({})).cwd).toBe("/data/work");
    expect((await owner.createSession({ cwd: "/srv/app/current/logs" })).cwd).toBe(
      "/srv/app/releases/7/logs",
    );
    expect((await owner.createSession({ cwd: "/home/me/work/site" })).cwd).toBe("/data/work/site");
  });

  it("PATCH /sessions/:id: an outside folder is refused and nothing is changed", async () => {
    const { owner } = await ownerHarness({ allowedRoots: ["/srv/app"], folders: FOLDERS });
    const created = await owner.createSession({ cwd: "/srv/app/src", title: "Shop" });
    for (const cwd of ["/srv/app/out", "/srv/app2", "/srv/app/../app2/x"]) {
      const error = await refusal(
        owner.patchSession(created.id, { cwd, title: "Moved" }),
        "REMOTE_RELAY_INVALID_INPUT",
      );
      expect(error.message).toContain("may not use. The folder must be one that the relay is allowed to use");
      expect(error.message).toMatch(/Nothing was changed\.$/);
    }
    expect(await owner.getSession(created.id)).toMatchObject({ cwd: "/srv/app/src", title: "Shop" });
    expect((await owner.patchSession(created.id, { cwd: "/srv/app/current" })).cwd).toBe(
      "/srv/app/releases/7",
    );
  });
});

describe("owner settings show the allowed roots (DESIGN §4)", () => {
  it("GET and PATCH /settings show the roots as real paths, without repeats; they are never stored", async () => {
    const { owner, stores } = await ownerHarness({
      allowedRoots: ["/home/me/work", "/srv/app/./", "/data/work", "/srv/app"],
      folders: FOLDERS,
    });
    expect((await owner.getSettings()).allowedRoots).toEqual(["/data/work", "/srv/app"]);
    const patched = await owner.patchSettings({ quietAfterMinutes: 5 });
    expect(patched).toMatchObject({ quietAfterMinutes: 5, allowedRoots: ["/data/work", "/srv/app"] });
    expect(await owner.getSettings()).toEqual(patched);
    expect(await stores.settings.getSetting("owner.settings")).not.toHaveProperty("allowedRoots");
  });
});
