import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, OWNER_TOKEN } from "./harness";
import { type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import { firedCount, notOnce, SCHEDULED, scheduleLoad } from "./support/schedule-load";

/**
 * DESIGN §3, §8: a firing's slot is recorded with its message in one transaction, so a kill -9 in
 * the middle of a run of firings neither doubles nor loses one: what committed stays fired, what
 * did not fires once when the relay is back (or in the other relay process).
 */
describe("kill -9 of a real relay process while schedules fire", { timeout: 120_000 }, () => {
  const processes: RelayProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const relay of processes.splice(0)) {
      stopIfRunning(relay);
      await relay.exited;
    }
    for (const dir of dirs.splice(0)) {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const start = async (env: Record<string, string>) => {
    const relay = spawnRelay({ RELAY_NAME: "desk", RELAY_OWNER_TOKEN: OWNER_TOKEN, ...env });
    processes.push(relay);
    return { relay, base: await relay.listening };
  };

  /** Kills `relay` once some of the load has fired and not all of it; how many had fired. */
  const killMidway = async (
    relay: RelayProcess,
    base: string,
    load: Awaited<ReturnType<typeof scheduleLoad>>,
  ) => {
    const seen = await eventually(async () => {
      const n = firedCount(await load.fired(base));
      return n > 0 ? n : undefined;
    }, 30_000);
    relay.child.kill("SIGKILL");
    await relay.exited;
    return seen;
  };

  it("on PGlite: the restarted relay fires what the killed one had not, each schedule once", async () => {
    const root = await mkdtemp(join(tmpdir(), "oar-schedules-kill-"));
    dirs.push(root);
    const env = { RELAY_DATA_DIR: join(root, "data") };
    const first = await start(env);
    const load = await scheduleLoad(first.base, { leadMs: 3_000, spreadMs: 3_000 });
    const seenBeforeKill = await killMidway(first.relay, first.base, load);
    expect(seenBeforeKill).toBeLessThan(SCHEDULED);

    const second = await start(env);
    const counts = await eventually(async () => {
      const now = await load.fired(second.base);
      return firedCount(now) === SCHEDULED ? now : undefined;
    }, 30_000);
    expect(notOnce(counts)).toEqual([]);
    // Nothing more comes later: every schedule ended as fired.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(notOnce(await load.fired(second.base))).toEqual([]);
  });

  describe.skipIf(TEST_POSTGRES_URL === undefined)("on Postgres, two relay processes", () => {
    const database = useScratchPostgres();

    it("both running: each slot fires once", async () => {
      const env = { DATABASE_URL: database().url };
      const a = await start(env);
      const b = await start(env);
      const load = await scheduleLoad(a.base, { leadMs: 3_000, spreadMs: 2_000 });
      const counts = await eventually(async () => {
        const now = await load.fired(b.base);
        return firedCount(now) === SCHEDULED ? now : undefined;
      }, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(notOnce(await load.fired(a.base))).toEqual([]);
      expect(counts.size).toBe(SCHEDULED);
    });

    it("one killed mid-firing: the other fires the rest, each slot once", async () => {
      const env = { DATABASE_URL: database().url };
      const a = await start(env);
      const b = await start(env);
      const load = await scheduleLoad(a.base, { leadMs: 3_000, spreadMs: 3_000 });
      const seenBeforeKill = await killMidway(a.relay, a.base, load);
      expect(seenBeforeKill).toBeLessThan(SCHEDULED);
      const counts = await eventually(async () => {
        const now = await load.fired(b.base);
        return firedCount(now) === SCHEDULED ? now : undefined;
      }, 30_000);
      expect(notOnce(counts)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(notOnce(await load.fired(b.base))).toEqual([]);
    });
  });
});
