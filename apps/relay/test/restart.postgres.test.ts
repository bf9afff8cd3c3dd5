import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { eventually, OWNER_TOKEN } from "./harness";
import { ownerCall, type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";

interface Turn {
  readonly status: string;
  readonly reply: string | null;
  readonly error: string | null;
}

const dataDir = await mkdtemp(join(tmpdir(), "oar-restart-postgres-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "a relay restarted on Postgres after kill -9, on the same host (DESIGN §9, issue 27 item 5)",
  { timeout: 90_000 },
  () => {
    const database = useScratchPostgres();
    const processes: RelayProcess[] = [];
    afterEach(() => {
      for (const relay of processes.splice(0)) {
        stopIfRunning(relay);
      }
    });
    const start = () => {
      const relay = spawnRelay({
        RELAY_NAME: "desk",
        RELAY_OWNER_TOKEN: OWNER_TOKEN,
        RELAY_DATA_DIR: dataDir,
        DATABASE_URL: database().url,
      });
      processes.push(relay);
      return relay;
    };

    it("the new process ends the dead one's running turn at once (its lease names this host and a pid that is gone), not when the lease expires, and runs the prompt queued behind it", async () => {
      const first = start();
      const firstBase = await first.listening;
      const created = await ownerCall<{ id: string }>(firstBase, OWNER_TOKEN, {
        method: "POST",
        path: "/v1/owner/sessions",
        body: { title: "Long one", text: "!sleep 600000" },
      });
      expect(created.status).toBe(200);
      const sessionId = created.body.id;
      await ownerCall(firstBase, OWNER_TOKEN, {
        method: "POST",
        path: `/v1/owner/sessions/${sessionId}/messages`,
        body: { text: "!reply after the restart" },
      });
      const turnsAt = async (base: string) =>
        (
          await ownerCall<{ turns: Turn[] }>(base, OWNER_TOKEN, {
            method: "GET",
            path: `/v1/owner/sessions/${sessionId}`,
          })
        ).body.turns;
      await eventually(async () => ((await turnsAt(firstBase))[0]?.status === "running" ? true : undefined));

      first.child.kill("SIGKILL");
      await first.exited;
      const killedAt = Date.now();
      const second = start();
      const secondBase = await second.listening;
      const listeningAt = Date.now();

      // The dead process's lease is live for 10 to 15 s more: only its pid being gone ends the turn sooner.
      const [ended] = await eventually(async () => {
        const turns = await turnsAt(secondBase);
        return turns[0]?.status === "running" ? undefined : turns;
      }, 40_000);
      const endedAt = Date.now();
      console.info(
        `restart: the dead process's turn showed ended ${endedAt - listeningAt} ms after the new process listened (${endedAt - killedAt} ms after kill -9)`,
      );
      expect(ended).toMatchObject({
        status: "error",
        error: expect.stringContaining("relay process running this turn went away"),
      });
      expect(endedAt - listeningAt).toBeLessThanOrEqual(2_000);

      const turns = await eventually(async () => {
        const all = await turnsAt(secondBase);
        return all[1]?.status === "done" ? all : undefined;
      }, 20_000);
      expect(turns[1]).toMatchObject({ status: "done", reply: "after the restart" });
    });
  },
);
