import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pidRuns } from "../src/runner-process";
import { eventually, OWNER_TOKEN } from "./harness";
import { ownerOk, type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import type { SessionView } from "./support/served-relay";
import { liveGroupMembers } from "./support/tasks";

// Each writes its pid first, so the test knows what must not outlive the relay that started it.
const LONG_TASK = "echo $$ > task.pid; sleep 1000 & sleep 1000";
const SLEEPING_CLI = ["sh", "-c", "echo $$ > {cwd}/cli.pid; sleep 1000 & sleep 1000"];

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "a relay process of a cluster killed with kill -9: what it started does not outlive it (DESIGN §9, issue 32 item 1; real processes on Postgres)",
  { timeout: 90_000 },
  () => {
    const database = useScratchPostgres();
    const processes: RelayProcess[] = [];
    const leftovers: number[] = [];
    const dirs: string[] = [];
    afterEach(async () => {
      for (const relay of processes.splice(0)) {
        stopIfRunning(relay);
        await relay.exited;
      }
      for (const pid of leftovers.splice(0)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone, as it should be.
        }
      }
      for (const dir of dirs.splice(0)) {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("the other process ends its turns within its lease and kills its agent's CLI and its task's group on their host", async () => {
      const root = await mkdtemp(join(tmpdir(), "oar-cluster-kill-"));
      dirs.push(root);
      const start = async (name: string) => {
        const relay = spawnRelay({
          RELAY_NAME: "desk",
          RELAY_OWNER_TOKEN: OWNER_TOKEN,
          RELAY_DATA_DIR: join(root, name),
          RELAY_ALLOWED_ROOTS: root,
          DATABASE_URL: database().url,
        });
        processes.push(relay);
        return { relay, base: await relay.listening };
      };
      const first = await start("first");
      const second = await start("second");
      await ownerOk(first.base, "PATCH", "/v1/owner/settings", {
        providers: { sleeper: { command: SLEEPING_CLI, models: ["s1"] } },
      });
      const pidIn = (file: string) =>
        eventually(async () => {
          const text = await readFile(join(root, file), "utf8").catch(() => "");
          return /^\d+\n$/.test(text) ? Number(text) : undefined;
        });
      const build = await ownerOk<SessionView>(first.base, "POST", "/v1/owner/sessions", {
        provider: "script",
        cwd: root,
        title: "Build",
        text: `!task build :: ${LONG_TASK}\n!sleep 600000`,
      });
      const taskGroup = await pidIn("task.pid");
      leftovers.push(-taskGroup);
      const agent = await ownerOk<SessionView>(first.base, "POST", "/v1/owner/sessions", {
        provider: "sleeper",
        cwd: root,
        title: "Agent",
        text: "think for a long time",
      });
      const cli = await pidIn("cli.pid");
      leftovers.push(cli);
      expect(pidRuns(cli)).toBe(true);

      first.relay.child.kill("SIGKILL");
      expect(await first.relay.exited).toBe("SIGKILL");
      const killedAt = Date.now();
      // Its own process group and a child of its own: the relay's death takes neither along.
      expect((await liveGroupMembers(taskGroup)).length).toBeGreaterThanOrEqual(2);
      expect(pidRuns(cli)).toBe(true);

      const turnsEnded = async () => {
        const views = await Promise.all(
          [build.id, agent.id].map((id) =>
            ownerOk<SessionView>(second.base, "GET", `/v1/owner/sessions/${id}`),
          ),
        );
        return views.every((view) => view.turns[0]?.status === "error") ? views : undefined;
      };
      const [buildView] = await eventually(turnsEnded, 30_000);
      expect(buildView?.tasks[0]).toMatchObject({ status: "failed" });
      await eventually(
        async () => ((await liveGroupMembers(taskGroup)).length === 0 ? true : undefined),
        10_000,
      );
      await eventually(async () => (!pidRuns(cli) ? true : undefined), 10_000);
      // Within the dead process's lease (15 s), not at some later sweep.
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      // The surviving process and this one are untouched.
      expect(pidRuns(second.relay.child.pid ?? 0)).toBe(true);
    });
  },
);
