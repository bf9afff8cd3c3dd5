import { type IdGenerator, type Logger, overriding } from "@oar/core";
import { createSequentialIdGenerator, FakeClock } from "@oar/core/testing";
import { createEngine, type Engine, type EngineStores, PRUNE_KINDS, type PruneKind } from "@oar/engine";
import { createTestProvider, newOutboxEvent, newSession, newTask } from "@oar/engine/testing";
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../src";
import { testDatabases } from "./databases";

const T0 = Date.parse("2026-03-10T12:00:00.000Z");
const DAY = 24 * 3_600_000;
/** A month on: every seeded row is past its span. */
const NOW = T0 + 30 * DAY;
const RELAY = { name: "desk", version: "0.1.0", platform: "linux-x64" } as const;

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) {
    await close();
  }
});

/** How many rows of each kind the seed leaves prunable, and how many it keeps. */
const PRUNABLE: Readonly<Record<PruneKind, number>> = {
  events: 300,
  deliveries: 400,
  wakeups: 400,
  firings: 120,
  toolCalls: 150,
  tasks: 60,
};
const KEPT: Readonly<Record<PruneKind, number>> = {
  // The newest event stays.
  events: 1,
  deliveries: 0,
  wakeups: 0,
  firings: 0,
  toolCalls: 200,
  tasks: 0,
};

/** Old rows of every kind, written as the engine writes them; one session holds what needs one. */
async function seed(stores: EngineStores): Promise<void> {
  const old = T0;
  await stores.sessions.createSession(newSession("ses_1", { createdAt: old }));
  for (let n = 0; n <= PRUNABLE.events; n++) {
    await stores.events.appendEvent(newOutboxEvent(`evt_${n}`, { at: old }));
  }
  await stores.deliveries.setCursor(await stores.events.lastEventSeq());
  await stores.deliveries.addDeliveries(
    Array.from({ length: PRUNABLE.deliveries }, (_, n) => ({
      id: `dlv_${n}`,
      watcher: "ses_1",
      subscriptionId: null,
      eventId: `evt_${n}`,
      eventSeq: n + 1,
      reason: "urgent" as const,
      dueAt: old,
      echoTurnId: null,
      createdAt: old,
      status: "sent" as const,
      messageId: `msg_${n}`,
    })),
  );
  await stores.deliveries.recordWakeups(
    Array.from({ length: PRUNABLE.wakeups }, (_, n) => ({
      messageId: `msg_${n}`,
      watcher: "ses_1",
      at: old,
      kind: "batch" as const,
    })),
  );
  for (let s = 0; s < PRUNABLE.firings / 10; s++) {
    const id = `sch_${s}`;
    await stores.schedules.insertSchedule({
      id,
      title: id,
      text: "Check.",
      sessionId: "ses_1",
      createdBy: "ses_1",
      at: null,
      everyMinutes: 60,
      once: false,
      anchor: old,
      nextFireAt: old,
      provenance: null,
      createdAt: old,
    });
    for (let slot = 0; slot < 10; slot++) {
      await stores.schedules.recordFiring({
        id: `fir_${s}_${slot}`,
        scheduleId: id,
        slot: old + slot * 3_600_000,
        outcome: "fired",
        turnId: null,
        at: old,
      });
    }
    await stores.schedules.endSchedule({ id, reason: "unscheduled", at: old + DAY });
  }
  await stores.toolCalls.recordToolCalls(
    Array.from({ length: PRUNABLE.toolCalls + KEPT.toolCalls }, (_, n) => ({
      id: `call_${n}`,
      sessionId: "ses_1",
      action: "list_sessions",
      relay: "desk",
      targetSession: null,
      ok: true,
      code: null,
      summary: `call ${n}`,
      createdAt: old + n,
    })),
  );
  for (let n = 0; n < PRUNABLE.tasks; n++) {
    const id = `tsk_${n}`;
    await stores.tasks.insertTask(newTask(id, "ses_1", { startedAt: old }));
    await stores.tasks.endTask({ id, status: "finished", exitCode: 0, endedAt: old });
    await stores.tasks.forgetOutput(id);
  }
}

/** The stores with every row each prune call deleted added up. */
function countingDeletes(stores: EngineStores, deleted: Record<PruneKind, number>): EngineStores {
  const methods = {
    events: "pruneEvents",
    deliveries: "pruneDeliveries",
    wakeups: "pruneWakeups",
    firings: "pruneFirings",
    toolCalls: "pruneToolCalls",
    tasks: "pruneTasks",
  } as const;
  const retention = stores.retention;
  const counted = Object.fromEntries(
    PRUNE_KINDS.map((kind) => [
      methods[kind],
      async (batch: never) => {
        const n = await (retention[methods[kind]] as (batch: never) => Promise<number>)(batch);
        deleted[kind] += n;
        return n;
      },
    ]),
  );
  return overriding(stores, { retention: overriding(retention, counted) });
}

const noneOf = () => Object.fromEntries(PRUNE_KINDS.map((kind) => [kind, 0])) as Record<PruneKind, number>;

for (const database of testDatabases) {
  // Seeding some two thousand rows takes seconds on a loaded machine: past the 5 s default.
  describe.skipIf(!database.available)(
    `pruning from two relay processes on ${database.name}`,
    { timeout: 60_000 },
    () => {
      /** The first storage, and a second connection to the same database (PGlite: the same one, as it has a single process). */
      async function twoStorages(): Promise<[Storage, Storage]> {
        const created = await database.create();
        const first = await openStorage(created.config);
        opened.push(async () => {
          await first.close();
          await created.dispose();
        });
        if (database.name === "pglite") {
          return [first, first];
        }
        const second = await openStorage(created.config);
        opened.push(() => second.close());
        return [first, second];
      }

      async function engineOn(
        storage: Storage,
        name: string,
        deleted: Record<PruneKind, number>,
        warned: string[],
      ) {
        const base = createSequentialIdGenerator();
        const ids: IdGenerator = { next: (kind) => `${base.next(kind)}${name}` };
        const logger: Logger = {
          debug: () => {},
          info: () => {},
          warn: (message, fields) => warned.push(`${name}: ${message} ${JSON.stringify(fields)}`),
          error: (message, fields) => warned.push(`${name}: ${message} ${JSON.stringify(fields)}`),
        };
        const engine: Engine = createEngine({
          stores: countingDeletes(storage.stores, deleted),
          providers: [createTestProvider()],
          clock: new FakeClock(NOW),
          ids,
          logger,
          relay: RELAY,
          approvalCards: false,
          sharedStore: database.name === "postgres",
          // Small batches and passes: the two engines' passes overlap for many statements.
          retention: { batchSize: 40, batchesPerPass: 3 },
        });
        await engine.start();
        opened.push(() => engine.close());
        return engine;
      }

      it("DESIGN §9: two engines pruning at once delete each row once, with no error, kind by kind under a lease", async () => {
        const [one, two] = await twoStorages();
        await seed(one.stores);
        const warned: string[] = [];
        const deleted = [noneOf(), noneOf()] as const;
        const engines = [
          await engineOn(one, "a", deleted[0], warned),
          await engineOn(two, "b", deleted[1], warned),
        ];
        let skipped = 0;
        for (let round = 0; round < 100; round++) {
          const reports = await Promise.all(engines.map((engine) => engine.pruneNow()));
          skipped += reports.reduce((sum, report) => sum + report.skipped.length, 0);
          expect(reports.flatMap((report) => report.failed)).toEqual([]);
          const busy = reports.some(
            (report) =>
              report.unfinished.length > 0 ||
              report.skipped.length > 0 ||
              PRUNE_KINDS.some((k) => report.pruned[k] > 0),
          );
          if (!busy) {
            break;
          }
        }
        expect(warned).toEqual([]);
        for (const kind of PRUNE_KINDS) {
          expect(deleted[0][kind] + deleted[1][kind], kind).toBe(PRUNABLE[kind]);
        }
        expect(await one.stores.retention.countRows()).toEqual(KEPT);
        // They met: a kind one engine was pruning, the other left to it.
        expect(skipped).toBeGreaterThan(0);
      });

      it("DESIGN §9: without the lease, prunes of one kind racing on two connections still delete each row once", async () => {
        const [one, two] = await twoStorages();
        await seed(one.stores);
        const keptSince = NOW - 7 * DAY;
        const race = async (prune: (stores: EngineStores) => Promise<number>) => {
          let total = 0;
          for (;;) {
            const [a, b] = await Promise.all([prune(one.stores), prune(two.stores)]);
            total += a + b;
            if (a === 0 && b === 0) {
              return total;
            }
          }
        };
        expect(await race((s) => s.retention.pruneEvents({ keptSince, limit: 25 }))).toBe(PRUNABLE.events);
        expect(await race((s) => s.retention.pruneDeliveries({ keptSince, limit: 25 }))).toBe(
          PRUNABLE.deliveries,
        );
        expect(await race((s) => s.retention.pruneWakeups({ keptSince, limit: 25 }))).toBe(PRUNABLE.wakeups);
        expect(await race((s) => s.retention.pruneFirings({ keptSince, limit: 25 }))).toBe(PRUNABLE.firings);
        expect(await race((s) => s.retention.pruneToolCalls({ keep: 200, limit: 25 }))).toBe(
          PRUNABLE.toolCalls,
        );
        expect(await race((s) => s.retention.pruneTasks({ keptSince, limit: 25 }))).toBe(PRUNABLE.tasks);
        expect(await one.stores.retention.countRows()).toEqual(KEPT);
      });
    },
  );
}
