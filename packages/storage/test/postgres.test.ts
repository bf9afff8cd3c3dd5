import { newSession, newTurn } from "@oar/engine/testing";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../src";
import { postgresDatabase, useTestStorage } from "./databases";

const T0 = Date.UTC(2026, 0, 1);
const ROUNDS = 20;

// What PGlite's single connection cannot show: two connections racing for the same row.
describe.skipIf(!postgresDatabase.available)("Postgres with several connections", () => {
  const test = useTestStorage(postgresDatabase);
  let other: Storage | undefined;
  const a = () => test.storage().stores;
  const b = () => (other as Storage).stores;

  beforeAll(async () => {
    // A second pool on the same database, as a second relay process would open it.
    other = await openStorage(test.config());
  }, 60_000);
  afterAll(async () => {
    await other?.close();
  });
  afterEach(() => test.empty());

  it("applies each migration once, however many processes open a new database at once", async () => {
    const scratch = await postgresDatabase.create();
    try {
      const opened = await Promise.all([1, 2, 3].map(() => openStorage(scratch.config)));
      const rows = await opened[0]?.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(Number((rows as unknown as { n: number }[])[0]?.n)).toBeGreaterThan(0);
      const reopened = await openStorage(scratch.config);
      const again = await reopened.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(again).toEqual(rows);
      await Promise.all([...opened, reopened].map((storage) => storage.close()));
    } finally {
      await scratch.dispose();
    }
  }, 60_000);

  it("gives a session's queued turn to only one of two connections claiming at once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const session = `ses_race_${round}`;
      await a().sessions.createSession(newSession(session));
      await a().sessions.enqueueTurn(newTurn(`trn_${round}_1`, session));
      await a().sessions.enqueueTurn(newTurn(`trn_${round}_2`, session));
      const claims = await Promise.all([
        a().sessions.claimNextTurn({ sessionId: session, now: T0 }),
        b().sessions.claimNextTurn({ sessionId: session, now: T0 }),
      ]);
      expect(claims.filter((claim) => claim !== null).map((claim) => claim?.id)).toEqual([`trn_${round}_1`]);
    }
  });

  it("refuses a second running turn in a session even to a write that bypasses the store", async () => {
    await a().sessions.createSession(newSession("ses_1"));
    await a().sessions.enqueueTurn(newTurn("trn_1", "ses_1"));
    await a().sessions.enqueueTurn(newTurn("trn_2", "ses_1"));
    await a().sessions.claimNextTurn({ sessionId: "ses_1", now: T0 });
    await expect(
      test.storage().db.execute(sql`update turns set status = 'running' where id = 'trn_2'`),
    ).rejects.toMatchObject({ cause: { code: "23505" } });
  });

  it("gives a contended lease to one connection, and the next holder a higher token", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = `worker:ses_${round}`;
      const first = await Promise.all([
        a().leases.acquireLease({ name, owner: "relay-a", ttlMs: 1000, now: T0 }),
        b().leases.acquireLease({ name, owner: "relay-b", ttlMs: 1000, now: T0 }),
      ]);
      const firstWinners = first.flatMap((result) => (result.ok ? [result.value] : []));
      expect(firstWinners).toHaveLength(1);

      const second = await Promise.all([
        a().leases.acquireLease({ name, owner: "relay-c", ttlMs: 1000, now: T0 + 1000 }),
        b().leases.acquireLease({ name, owner: "relay-d", ttlMs: 1000, now: T0 + 1000 }),
      ]);
      const secondWinners = second.flatMap((result) => (result.ok ? [result.value] : []));
      expect(secondWinners).toHaveLength(1);
      expect(secondWinners[0]?.fencingToken).toBeGreaterThan(firstWinners[0]?.fencingToken ?? Infinity);
    }
  });

  it("records only one of two answers given to a card through two connections", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = `card_${round}`;
      await a().cards.createCard({
        id,
        kind: "anti_loop",
        conversation: "ses_conv",
        action: "send",
        targetRelay: "this",
        createdAt: T0,
        expiresAt: T0 + 60_000,
      });
      const answers = await Promise.all([
        a().cards.answerCard({ id, decision: "allowed", at: T0 + 1 }),
        b().cards.answerCard({ id, decision: "denied", at: T0 + 1 }),
      ]);
      expect(answers.filter(Boolean)).toHaveLength(1);
    }
  });

  it("loses no anti-loop increment across connections", async () => {
    const increments = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? a() : b()).loopCounters.incrementLoopCounter("ses_conv"),
    );
    expect([...(await Promise.all(increments))].sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });
});

describe.skipIf(!postgresDatabase.available)("Postgres connections that die (DESIGN §4)", () => {
  const test = useTestStorage(postgresDatabase);

  it("a transaction whose backend is terminated fails with REMOTE_RELAY_UNAVAILABLE, does not crash the process, and the pool goes on", async () => {
    const storage = test.storage();
    const outcome = await storage.stores
      .transaction(async (tx) => {
        await tx.sessions.createSession(newSession("ses_doomed"));
        // Another connection ends this one's backend, as a server restart or a cut link would.
        await storage.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
        );
        // The first statement on the dead connection fails; the next one used to throw from a
        // timer inside postgres.js (porsager/postgres#1208) and take the process down.
        await tx.sessions.getSession("ses_doomed").catch(() => null);
        await tx.sessions.createSession(newSession("ses_after"));
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(outcome).toMatchObject({ code: "REMOTE_RELAY_UNAVAILABLE" });
    // A write postgres.js scheduled on the dead connection must not throw from a timer later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await storage.stores.sessions.getSession("ses_doomed")).toBeNull();
    expect((await storage.stores.sessions.createSession(newSession("ses_next"))).id).toBe("ses_next");
  });
});
