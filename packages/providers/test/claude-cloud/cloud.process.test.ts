import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import type { Worker, WorkerSession } from "@oar/engine";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { claudeProviderSource } from "../../src";
import { createGitRemotes, GIT_IDENTITY_ENV, type GitRemotes, text, toolUse } from "../../src/testing";
import {
  CLAUDE_TEST_TIMEOUT_MS,
  type ClaudeTestbed,
  createClaudeTestbed,
  findProvider,
  pinnedClaudeBinary,
  turnOf,
} from "../claude/claude-testbed";

const REPO = "example-org/sample-repo";
const PUSH = {
  command:
    "echo Hello > banner.txt && git add banner.txt && git commit -qm 'Banner says Hello' && git push -q origin HEAD:feature/banner",
  description: "Commit and push the banner",
};

interface Cloud {
  readonly bed: ClaudeTestbed;
  readonly remotes: GitRemotes;
  readonly workspaces: string;
  worker(session?: Partial<WorkerSession>): Worker;
  provider(): ReturnType<typeof findProvider>;
}

/** The real CLI against the fake Messages API, with local bare repositories standing for the git host. */
async function cloud(): Promise<Cloud> {
  const bed = await createClaudeTestbed();
  // Stands in for the CLI's subscription login, which claude-cloud bills like claude.
  Object.assign(bed.env, GIT_IDENTITY_ENV, { ANTHROPIC_AUTH_TOKEN: "login-token" });
  const remotes = createGitRemotes(bed.root, process.env.PATH);
  const workspaces = join(bed.root, "data", "workspaces");
  const provider = () =>
    findProvider(
      claudeProviderSource({ bin: pinnedClaudeBinary(), env: bed.env, workspaceDir: workspaces }).providers({
        "claude-cloud": { gitBaseUrl: remotes.baseUrl },
      }),
      "claude-cloud",
    );
  return {
    bed,
    remotes,
    workspaces,
    provider,
    worker(session = {}) {
      const worker = provider().startWorker({
        id: "ses_cloud",
        title: "Banner",
        model: "claude-sonnet-5-5",
        effort: null,
        mode: "agent",
        cwd: null,
        repo: REPO,
        branch: "feature/banner",
        providerState: null,
        ...session,
      });
      if (!worker) {
        throw new Error("claude-cloud always starts a worker");
      }
      onTestFinished(() => worker.close());
      return worker;
    },
  };
}

/** A cloud session's turn: it has no folder of its own (the worker runs the CLI in its clone). */
const cloudTurn = (prompt: string, overrides: Parameters<typeof turnOf>[2] = {}) =>
  turnOf(prompt, "", { cwd: null, ...overrides });

const branchOf = (dir: string) =>
  execFileSync("git", ["rev-parse", "--abbrev-ref", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();

describe("claude-cloud against the real CLI and a local git host (R-CRE-07, issue 31)", {
  timeout: CLAUDE_TEST_TIMEOUT_MS,
}, () => {
  it("clones the repository before the first turn, on a new branch; the agent's commit and push land without a card", async () => {
    const c = await cloud();
    c.remotes.create(REPO);
    c.bed.fake.enqueue(toolUse("Bash", PUSH), text("Changed the banner to Hello and pushed feature/banner."));
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await c.worker().runTurn(cloudTurn("Change the banner to Hello and push."), io);

    expect(outcome).toEqual({
      status: "done",
      reply: "Changed the banner to Hello and pushed feature/banner.",
    });
    expect(io.questions).toEqual([]);
    expect(c.remotes.lastCommit(REPO, "feature/banner")).toBe("Banner says Hello");
    expect(c.remotes.show(REPO, "feature/banner", "banner.txt")).toBe("Hello\n");
    const clone = join(c.workspaces, "ses_cloud");
    expect(branchOf(clone)).toBe("feature/banner");
    // The CLI ran in the clone, and the clone is not left half made beside it.
    expect(JSON.stringify(c.bed.fake.messageRequests[0]?.body)).toContain(clone);
    expect(existsSync(`${clone}.cloning`)).toBe(false);
  });

  it("checks out a branch the remote has; a new worker (a restart) goes on in the same clone", async () => {
    const c = await cloud();
    c.remotes.create(REPO, { "feature/banner": { "banner.txt": "Welcome\n" } });
    c.bed.fake.enqueue(
      toolUse("Bash", { command: "echo draft > notes.txt", description: "Write notes" }),
      text("Noted."),
      text("Still here."),
    );
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    await c.worker().runTurn(cloudTurn("Take notes."), io);
    const clone = join(c.workspaces, "ses_cloud");
    expect(readFileSync(join(clone, "banner.txt"), "utf8")).toBe("Welcome\n");
    expect(branchOf(clone)).toBe("feature/banner");

    const again = c.worker({ providerState: io.savedStates.at(-1) ?? null });
    const outcome = await again.runTurn(
      cloudTurn("Go on."),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );
    expect(outcome).toEqual({ status: "done", reply: "Still here." });
    // Not cloned again: the agent's uncommitted file is still there.
    expect(readFileSync(join(clone, "notes.txt"), "utf8")).toBe("draft\n");
  });

  it("in plan mode the clone's tools are refused without a card", async () => {
    const c = await cloud();
    c.remotes.create(REPO);
    c.bed.fake.enqueue(toolUse("Bash", PUSH), text("I may not change anything in plan mode."));
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await c.worker({ mode: "plan" }).runTurn(cloudTurn("Push.", { mode: "plan" }), io);

    expect(io.questions).toEqual([]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: "done" });
    expect(c.remotes.lastCommit(REPO, "feature/banner")).toBeNull();
  });

  it("a clone that fails ends the turn with git's message, before the CLI runs", async () => {
    const c = await cloud();
    const io = createRecordingTurnIO({ clock: new FakeClock() });

    const outcome = await c.worker({ repo: "example-org/missing" }).runTurn(cloudTurn("Hi."), io);

    expect(outcome).toEqual({
      status: "error",
      error: expect.stringMatching(
        /^Could not make this session's clone of example-org\/missing \(file:\/\/.*\/remotes\/example-org\/missing\): git clone failed: .*does not appear to be a git repository/s,
      ),
    });
    expect(c.bed.fake.messageRequests).toHaveLength(0);
    expect(existsSync(join(c.workspaces, "ses_cloud"))).toBe(false);

    const badBranch = await c
      .worker({ branch: "--upload-pack=touch pwned" })
      .runTurn(cloudTurn("Hi."), createRecordingTurnIO({ clock: new FakeClock() }));
    expect(badBranch).toMatchObject({
      status: "error",
      error: expect.stringContaining(
        'branch "--upload-pack=touch pwned" is not a name git takes for a branch.',
      ),
    });
    const badRepo = await c
      .worker({ repo: "--upload-pack=touch pwned" })
      .runTurn(cloudTurn("Hi."), createRecordingTurnIO({ clock: new FakeClock() }));
    expect(badRepo).toMatchObject({
      status: "error",
      error: expect.stringContaining("is neither owner/name"),
    });
  });

  it("discarding the session removes its clone; compaction hands the clone on", async () => {
    const c = await cloud();
    c.remotes.create(REPO);
    c.bed.fake.enqueue(text("Ready."));
    await c.worker().runTurn(cloudTurn("Hi."), createRecordingTurnIO({ clock: new FakeClock() }));
    const clone = join(c.workspaces, "ses_cloud");
    writeFileSync(join(clone, "work.txt"), "unpushed\n");
    const provider = c.provider();

    await provider.moveSessionFiles?.("ses_cloud", "ses_next");
    expect(existsSync(clone)).toBe(false);
    expect(readFileSync(join(c.workspaces, "ses_next", "work.txt"), "utf8")).toBe("unpushed\n");

    await provider.discardSession?.("ses_next");
    expect(existsSync(join(c.workspaces, "ses_next"))).toBe(false);
  });
});
