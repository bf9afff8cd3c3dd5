import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AgentTestbed,
  claudeTestEnv,
  createAgentTestbed,
  createGitRemotes,
  GIT_IDENTITY_ENV,
  type GitRemotes,
  pinnedClaudeBinary,
  text,
  toolUse,
} from "@oar/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import {
  externalCaller,
  type ServedRelay,
  type SessionView,
  serveRelay,
  turnsEnded,
} from "./support/served-relay";

const REPO = "example-org/sample-repo";
// A real CLI per turn: it starts in a second or two here, but a loaded CI box is slower.
const TEST_TIMEOUT_MS = 60_000;
const TURN_TIMEOUT_MS = 45_000;

interface CloudSessionView extends SessionView {
  readonly repo: string | null;
  readonly branch: string | null;
}

/**
 * Issue 31 (R-CRE-07/08, R-UPD-24, DESIGN §5): `claude-cloud` over the relay's HTTP surfaces, on
 * the real Claude Code CLI offline against a fake Messages API, with local bare repositories
 * standing for the git host (`gitBaseUrl` file://).
 */
function cloudFlow(database: string, databaseUrl: () => string | undefined) {
  let bed: AgentTestbed;
  let remotes: GitRemotes;
  let served: ServedRelay;
  let caller: { id: string; token: string };
  const dataDir = () => join(bed.root, "data");
  const cloneOf = (sessionId: string) => join(dataDir(), "workspaces", sessionId);

  const start = () => {
    const url = databaseUrl();
    return serveRelay({
      dataDir: dataDir(),
      allowedRoots: [bed.cwd],
      ...(url === undefined ? {} : { databaseUrl: url }),
      env: { RELAY_CLAUDE_BIN: pinnedClaudeBinary() },
      // The login token stands in for the CLI's subscription login, which claude-cloud bills like claude.
      overrides: { childEnv: { ...bed.env, ...GIT_IDENTITY_ENV, ANTHROPIC_AUTH_TOKEN: "login-token" } },
    });
  };
  const detailOf = (id: string) => served.ownerJson<CloudSessionView>("GET", `/v1/owner/sessions/${id}`);

  beforeAll(async () => {
    bed = await createAgentTestbed({ path: process.env.PATH, apiEnv: claudeTestEnv });
    remotes = createGitRemotes(bed.root, process.env.PATH);
    remotes.create(REPO);
    served = await start();
    await served.ownerJson("PATCH", "/v1/owner/settings", {
      providers: { "claude-cloud": { gitBaseUrl: remotes.baseUrl } },
    });
    caller = await externalCaller(served);
  });
  afterAll(async () => {
    await served?.close();
    await bed?.dispose();
  });

  describe(`claude-cloud over HTTP (${database})`, { timeout: TEST_TIMEOUT_MS }, () => {
    it("the owner starts a session on a repository and branch; the agent's commit and push land on the remote's branch, without a card", async () => {
      bed.fake.enqueue(
        toolUse("Bash", {
          command:
            "echo Hello > banner.txt && git add banner.txt && git commit -qm 'Banner says Hello' && git push -q origin HEAD:feature/banner",
          description: "Commit and push the banner",
        }),
        text("Changed the banner to Hello and pushed feature/banner."),
      );
      const created = await served.ownerJson<CloudSessionView>("POST", "/v1/owner/sessions", {
        provider: "claude-cloud",
        repo: REPO,
        branch: "feature/banner",
        text: 'On branch feature/banner, change the sample banner text to "Hello" and push.',
      });
      expect(created).toMatchObject({
        provider: "claude-cloud",
        repo: REPO,
        branch: "feature/banner",
        cwd: null,
      });

      const ended = await turnsEnded(served, created.id, TURN_TIMEOUT_MS);
      expect(ended.turns.map((turn) => turn.status)).toEqual(["done"]);
      expect(ended.messages.at(-1)?.text).toContain("Changed the banner to Hello and pushed feature/banner.");
      expect(remotes.lastCommit(REPO, "feature/banner")).toBe("Banner says Hello");
      expect(remotes.show(REPO, "feature/banner", "banner.txt")).toBe("Hello\n");
      const { cards } = await served.ownerJson<{ cards: unknown[] }>("GET", "/v1/owner/cards?status=pending");
      expect(cards).toEqual([]);
      // The clone is under the data dir, not in the owner's folders.
      expect(existsSync(join(cloneOf(created.id), "banner.txt"))).toBe(true);
    });

    it("R-CRE-07/08: create_session over /v1/tool takes repo and branch and returns them; list_sessions and read_session show them; cwd or no repo is refused", async () => {
      bed.fake.enqueue(text("Cloned and ready."));
      const refusedCwd = await served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "claude-cloud",
        repo: REPO,
        cwd: bed.cwd,
        text: "Hi.",
      });
      expect(refusedCwd).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_INVALID_INPUT",
        error: expect.stringMatching(/^cwd: /),
      });
      const refusedNoRepo = await served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "claude-cloud",
        text: "Hi.",
      });
      expect(refusedNoRepo).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_INVALID_INPUT",
        error: expect.stringMatching(/^repo: /),
      });

      // The first session an agent starts in a conversation needs the owner's Allow (GAP-04 a).
      const creating = served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "claude-cloud",
        repo: REPO,
        branch: "docs",
        text: "Get ready.",
        wait_seconds: 40,
      });
      const card = await pendingCard(served);
      await served.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
      const created = await creating;
      expect(created).toMatchObject({
        ok: true,
        status: "done",
        provider: "claude-cloud",
        repo: REPO,
        branch: "docs",
      });
      const id = created.session as string;

      const listed = await served.tool(caller.token, { action: "list_sessions", relay: "this" });
      expect((listed.sessions as { id: string }[]).find((s) => s.id === id)).toMatchObject({
        repo: REPO,
        branch: "docs",
        cwd: null,
      });
      expect(
        await served.tool(caller.token, { action: "read_session", relay: "this", session: id }),
      ).toMatchObject({
        repo: REPO,
        branch: "docs",
      });
      const moved = await served.tool(caller.token, {
        action: "update_session",
        relay: "this",
        session: id,
        cwd: bed.cwd,
      });
      expect(moved).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_INVALID_INPUT",
        error: expect.stringContaining("works on a clone of its repository"),
      });
    });

    it("a clone that fails ends the turn with git's message", async () => {
      const created = await served.ownerJson<CloudSessionView>("POST", "/v1/owner/sessions", {
        provider: "claude-cloud",
        repo: "example-org/missing",
        text: "Hi.",
      });
      const ended = await turnsEnded(served, created.id, TURN_TIMEOUT_MS);
      expect(ended.turns[0]).toMatchObject({
        status: "error",
        error: expect.stringMatching(
          /^Could not make this session's clone of example-org\/missing .*git clone failed/s,
        ),
      });
    });

    it("a relay restart keeps the clone and the conversation; archive removes the clone", async () => {
      bed.fake.enqueue(text("Wrote notes."));
      const created = await served.ownerJson<CloudSessionView>("POST", "/v1/owner/sessions", {
        provider: "claude-cloud",
        repo: REPO,
        text: "Take notes.",
      });
      await turnsEnded(served, created.id, TURN_TIMEOUT_MS);
      writeFileSync(join(cloneOf(created.id), "notes.txt"), "unpushed\n");

      await served.close();
      served = await start();
      bed.fake.enqueue(text("Still here."));
      await served.ownerJson("POST", `/v1/owner/sessions/${created.id}/messages`, { text: "Go on." });
      const ended = await turnsEnded(served, created.id, TURN_TIMEOUT_MS);
      expect(ended.turns.map((turn) => turn.status)).toEqual(["done", "done"]);
      expect(readFileSync(join(cloneOf(created.id), "notes.txt"), "utf8")).toBe("unpushed\n");
      expect((await detailOf(created.id)).repo).toBe(REPO);

      await served.ownerJson("POST", `/v1/owner/sessions/${created.id}/archive`);
      expect(existsSync(cloneOf(created.id))).toBe(false);
    });
  });
}

/** The first pending card, once one is raised. */
const pendingCard = (served: ServedRelay) =>
  eventually(async () => {
    const { cards } = await served.ownerJson<{ cards: { id: string }[] }>(
      "GET",
      "/v1/owner/cards?status=pending",
    );
    return cards[0];
  }, TURN_TIMEOUT_MS);

describe("PGlite", () => {
  cloudFlow("PGlite", () => undefined);
});

describe.skipIf(TEST_POSTGRES_URL === undefined)("Postgres", () => {
  const database = useScratchPostgres();
  cloudFlow("Postgres", () => database().url);
});
