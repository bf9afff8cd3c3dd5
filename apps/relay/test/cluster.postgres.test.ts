import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLUSTER_SECRET_HEADER } from "../src/cluster-link";
import { pidRuns } from "../src/runner-process";
import { eventually, OWNER_TOKEN } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import { externalCaller, type ServedRelay, type SessionView, serveRelay } from "./support/served-relay";
import { liveGroupMembers } from "./support/tasks";

// The shell writes its pid (its group's) first, then output, then runs until it is ended.
const LONG_TASK = "echo $$ > task.pid; echo compiling; echo 3 passed, 1 failed; sleep 1000";

/** Stands for a relay process of `host`: two of them on one machine act as on two machines. */
const processOn = (host: string) => ({ host, pid: process.pid, isAlive: () => true });

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "a cluster on one Postgres: a call through any process reaches the process running the work (DESIGN §9, issue 32 item 1)",
  { timeout: 90_000 },
  () => {
    const database = useScratchPostgres();
    const cleanup: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) {
        await step();
      }
    });

    async function twoProcesses() {
      const root = await mkdtemp(join(tmpdir(), "oar-cluster-"));
      cleanup.push(() => rm(root, { recursive: true, force: true }));
      const serve = async (name: string) => {
        const served = await serveRelay({
          dataDir: join(root, name),
          allowedRoots: [root],
          databaseUrl: database().url,
          overrides: { approvalCards: false, runnerProcess: processOn(`${name}-host`) },
        });
        cleanup.push(() => served.close());
        return served;
      };
      const first = await serve("first");
      const second = await serve("second");
      return { root, first, second };
    }

    /** An owner session on `served` whose turn starts LONG_TASK and then sleeps; its task and group. */
    async function longTurn(served: ServedRelay, root: string) {
      const { id } = await served.ownerJson<SessionView>("POST", "/v1/owner/sessions", {
        provider: "script",
        cwd: root,
        title: "Build",
        text: `!task build :: ${LONG_TASK}\n!sleep 600000\n!reply never`,
      });
      const task = await eventually(async () => {
        const session = await served.ownerJson<SessionView>("GET", `/v1/owner/sessions/${id}`);
        return session.tasks.find((t) => t.status === "running");
      });
      const pgid = await eventually(async () => {
        const text = await readFile(join(root, "task.pid"), "utf8").catch(() => "");
        return /^\d+\n$/.test(text) ? Number(text) : undefined;
      });
      cleanup.push(async () => {
        try {
          process.kill(-pgid, "SIGKILL");
        } catch {
          // Ended by the test, as it should be.
        }
      });
      return { sessionId: id, taskId: task.taskId, pgid };
    }

    it("read_task_output through the other process reads the file on the first's host; stop through it ends the turn and the task's group there", async () => {
      const { root, first, second } = await twoProcesses();
      const { sessionId, taskId, pgid } = await longTurn(first, root);
      const caller = await externalCaller(second);

      const read = await eventually(async () => {
        const result = await second.tool(caller.token, {
          action: "read_task_output",
          relay: "this",
          session: sessionId,
          task_id: taskId,
        });
        return (result.tail as string[] | undefined)?.includes("3 passed, 1 failed") ? result : undefined;
      });
      expect(read).toMatchObject({ ok: true, tail: ["compiling", "3 passed, 1 failed"] });
      expect(read.note).toBeUndefined();

      const stopped = await second.tool(caller.token, { action: "stop", relay: "this", session: sessionId });
      expect(stopped).toMatchObject({ ok: true });
      const session = await second.ownerJson<SessionView>("GET", `/v1/owner/sessions/${sessionId}`);
      expect(session.turns[0]).toMatchObject({ status: "stopped" });
      expect(session.tasks).toEqual([expect.objectContaining({ taskId, status: "stopped" })]);
      expect(await liveGroupMembers(pgid)).toEqual([]);
    });

    it("archive through the other process ends the task the first runs; once no process of its host is left, its output is reported lost on that host", async () => {
      const { root, first, second } = await twoProcesses();
      const { sessionId, taskId, pgid } = await longTurn(first, root);
      await first.ownerJson("POST", `/v1/owner/sessions/${sessionId}/kill`);
      await eventually(async () => ((await liveGroupMembers(pgid)).length === 0 ? true : undefined));

      const { pgid: secondGroup, sessionId: other, taskId: otherTask } = await longTurn(first, root);
      await second.ownerJson("POST", `/v1/owner/sessions/${other}/archive`);
      await eventually(async () => ((await liveGroupMembers(secondGroup)).length === 0 ? true : undefined));
      const archived = await second.ownerJson<SessionView>("GET", `/v1/owner/sessions/${other}`);
      expect(archived.tasks).toEqual([expect.objectContaining({ taskId: otherTask, status: "stopped" })]);

      await first.close();
      const caller = await externalCaller(second);
      const read = await second.tool(caller.token, {
        action: "read_task_output",
        relay: "this",
        session: sessionId,
        task_id: taskId,
      });
      expect(read).toMatchObject({
        ok: true,
        tail: [],
        note: expect.stringContaining("lost on host first-host"),
      });
    });

    it("the cluster route answers only the cluster's secret, only for the process it names, and only well-formed requests", async () => {
      const { first } = await twoProcesses();
      const post = async (headers: Record<string, string>, body: unknown) => {
        const response = await fetch(`${first.base}/v1/cluster`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const stop = { target: "runner:x", request: { op: "stop_turn", sessionId: "ses_x" } };
      expect(await post({}, stop)).toMatchObject({ status: 401, body: { code: "REMOTE_RELAY_AUTH" } });
      expect(await post({ Authorization: `Bearer ${OWNER_TOKEN}` }, stop)).toMatchObject({
        status: 401,
        body: { code: "REMOTE_RELAY_AUTH" },
      });
      expect(await post({ [CLUSTER_SECRET_HEADER]: "guess" }, stop)).toMatchObject({ status: 401 });

      const secret = (await first.relay.services.storage.stores.settings.getSetting(
        "cluster.secret",
      )) as string;
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      const withSecret = { [CLUSTER_SECRET_HEADER]: secret };
      expect(await post(withSecret, stop)).toMatchObject({
        status: 404,
        body: { code: "REMOTE_RELAY_NOT_FOUND", error: expect.stringContaining("not runner:x") },
      });
      expect(await post(withSecret, { target: "runner:x", request: { op: "format_disk" } })).toMatchObject({
        status: 400,
        body: { code: "REMOTE_RELAY_INVALID_INPUT" },
      });
      // The owner's settings never show it.
      const settings = await first.ownerJson<Record<string, unknown>>("GET", "/v1/owner/settings");
      expect(JSON.stringify(settings)).not.toContain(secret);
      expect(pidRuns(process.pid)).toBe(true);
    });
  },
);
