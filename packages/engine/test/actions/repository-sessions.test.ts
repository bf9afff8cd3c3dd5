import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/ports/provider";
import { createTestProvider } from "../../src/testing";
import { createHarness, refusal } from "./harness";

/** A provider whose sessions work on a clone of a repository, like claude-cloud (R-CRE-07), recording its clones' fate. */
function repositoryProvider() {
  const base = createTestProvider({ info: { id: "cloud", label: "Cloud", worksOn: "repository" } });
  const discarded: string[] = [];
  const moved: { from: string; to: string }[] = [];
  const provider: Provider = {
    info: base.info,
    startWorker: (session) => base.startWorker(session),
    async discardSession(sessionId) {
      discarded.push(sessionId);
    },
    async moveSessionFiles(from, to) {
      moved.push({ from, to });
    },
  };
  return { provider, base, discarded, moved };
}

async function harnessWithRepository() {
  const cloud = repositoryProvider();
  const h = await createHarness({ extraProviders: [cloud.provider], allowedRoots: ["/srv"] });
  return { h, cloud };
}

const CREATE = { action: "create_session", relay: "this", text: "Change the banner." } as const;

describe("sessions on a repository (R-CRE-07/08, R-UPD-24)", () => {
  it("R-CRE-07/08: create_session takes repo and branch instead of a folder; the result, list_sessions and read_session carry them", async () => {
    const { h, cloud } = await harnessWithRepository();
    const result = await h.ok({
      ...CREATE,
      provider: "cloud",
      repo: "example-org/sample-repo",
      branch: "feature/banner",
    });
    expect(result).toMatchObject({
      status: "done",
      provider: "cloud",
      repo: "example-org/sample-repo",
      branch: "feature/banner",
    });
    const id = result.session as string;
    expect(await h.session(id)).toMatchObject({
      cwd: null,
      repo: "example-org/sample-repo",
      branch: "feature/banner",
    });
    // The worker got what it needs to make its clone.
    expect(cloud.base.turns.at(-1)?.sessionId).toBe(id);

    const listed = await h.ok({ action: "list_sessions", relay: "this" });
    expect((listed.sessions as { id: string }[]).find((s) => s.id === id)).toMatchObject({
      cwd: null,
      repo: "example-org/sample-repo",
      branch: "feature/banner",
    });
    expect(await h.ok({ action: "read_session", relay: "this", session: id })).toMatchObject({
      repo: "example-org/sample-repo",
      branch: "feature/banner",
    });
    // A folder session shows neither.
    const folder = await h.ok({ ...CREATE, provider: "test" });
    expect(folder).not.toHaveProperty("repo");
    expect(await h.ok({ action: "read_session", relay: "this", session: folder.session })).not.toHaveProperty(
      "repo",
    );
  });

  it("refuses a repository session without repo, or with cwd, naming the argument; nothing is created", async () => {
    const { h } = await harnessWithRepository();
    expect(refusal(await h.call({ ...CREATE, provider: "cloud" }))).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringMatching(
        /^repo: a cloud session needs the repository it works on.*Nothing was created\.$/,
      ),
    });
    expect(
      refusal(await h.call({ ...CREATE, provider: "cloud", repo: "org/repo", cwd: "/srv/app" })),
    ).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringMatching(
        /^cwd: a cloud session works on its own clone of a repository.*Nothing was created\.$/,
      ),
    });
    expect(refusal(await h.call({ ...CREATE, provider: "test", repo: "org/repo", branch: "main" }))).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error:
        'repo and branch: only a session on a repository (provider "claude-cloud") takes repo and branch; provider "test" works in a folder (cwd). Nothing was created.',
    });
    expect(await h.stores.sessions.listSessions()).toHaveLength(1);
  });

  it("R-CRE-03: a repository session that starts another of its kind passes on its repository and branch", async () => {
    const { h } = await harnessWithRepository();
    const parent = (await h.ownerSession({ provider: "cloud", repo: "org/repo", branch: "dev", cwd: null }))
      .id;
    const child = await h.ok({ ...CREATE }, parent);
    expect(child).toMatchObject({ provider: "cloud", repo: "org/repo", branch: "dev" });
    const otherBranch = await h.ok({ ...CREATE, branch: "fix" }, parent);
    expect(otherBranch).toMatchObject({ repo: "org/repo", branch: "fix" });
  });

  it("R-UPD-24: update_session and the owner refuse a folder for a repository session; nothing changed", async () => {
    const { h } = await harnessWithRepository();
    const id = (await h.ok({ ...CREATE, provider: "cloud", repo: "org/repo" })).session as string;
    expect(
      refusal(await h.call({ action: "update_session", relay: "this", session: id, cwd: "/srv/x" })),
    ).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: `cwd: session ${id} is a cloud session, which works on a clone of its repository (org/repo), not in a folder. Nothing was changed.`,
    });
    await expect(h.engine.owner.patchSession(id, { cwd: "/srv/x", title: "Moved" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
    expect(await h.session(id)).toMatchObject({ cwd: null, title: "Change the banner." });
  });

  it("the owner starts one with repo and branch; archive and delete remove its clone, compaction hands it on", async () => {
    const { h, cloud } = await harnessWithRepository();
    const created = await h.engine.owner.createSession({
      provider: "cloud",
      repo: "org/repo",
      branch: "main",
    });
    expect(created).toMatchObject({ repo: "org/repo", branch: "main", cwd: null });
    await expect(h.engine.owner.createSession({ provider: "cloud" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });

    const byAgent = (await h.ok({ ...CREATE, provider: "cloud", repo: "org/a" })).session as string;
    await h.ok({ action: "archive", relay: "this", session: byAgent });
    expect(cloud.discarded).toEqual([byAgent]);
    await h.engine.owner.archiveSession(created.id);
    expect(cloud.discarded).toEqual([byAgent, created.id]);

    const deleted = (await h.ok({ ...CREATE, provider: "cloud", repo: "org/b" })).session as string;
    await h.engine.owner.deleteSession(deleted);
    expect(cloud.discarded).toEqual([byAgent, created.id, deleted]);

    const old = (await h.ok({ ...CREATE, provider: "cloud", repo: "org/c" })).session as string;
    const next = await h.engine.owner.compactSession(old);
    expect(cloud.moved).toEqual([{ from: old, to: next.id }]);
    expect(next).toMatchObject({ repo: "org/c", cwd: null });
    // A folder provider keeps nothing to remove: archiving its session asks nothing of it.
    const folder = (await h.ok({ ...CREATE, provider: "test" })).session as string;
    await h.ok({ action: "archive", relay: "this", session: folder });
    expect(cloud.discarded).toHaveLength(3);
  });
});

describe("provider settings notes (R-UPD-07/08)", () => {
  const deepseekLike = createTestProvider({
    info: {
      id: "deep",
      label: "Deep",
      sessionSettings: {
        window: { zeroMeansTokens: 400_000 },
        thinking: "a Deep session always uses thinking.",
      },
    },
  });
  const claudeLike = createTestProvider({
    info: { id: "cc", label: "CC", sessionSettings: { window: true, thinking: true } },
  });

  it("R-UPD-08: on a provider where the window applies, 0 is named; thinking that does not apply says why", async () => {
    const h = await createHarness({ extraProviders: [deepseekLike, claudeLike] });
    const deep = await h.agentSession({ provider: "deep" });
    const result = await h.ok({
      action: "update_session",
      relay: "this",
      session: deep.id,
      auto_compact_window: 0,
      thinking_enabled: "off",
    });
    expect(result.changed).toEqual(["auto_compact_window", "thinking_enabled"]);
    expect(result.note).toContain('auto_compact_window 0 means 400,000 tokens for provider "deep".');
    expect(result.note).toContain(
      'thinking_enabled does not take effect for provider "deep": a Deep session always uses thinking.',
    );
    expect(result.note).not.toContain("apply only to Claude");
  });

  it("R-UPD-07: a provider where both apply gets no note about them", async () => {
    const h = await createHarness({ extraProviders: [deepseekLike, claudeLike] });
    const cc = await h.agentSession({ provider: "cc" });
    const result = await h.ok({
      action: "update_session",
      relay: "this",
      session: cc.id,
      auto_compact_window: 200000,
      thinking_enabled: "on",
    });
    expect(result.changed).toEqual(["auto_compact_window", "thinking_enabled"]);
    expect(result).not.toHaveProperty("note");
  });
});
