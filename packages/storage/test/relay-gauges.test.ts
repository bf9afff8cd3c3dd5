import { newOutboxEvent, newSession, newTurn } from "@oar/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStorage, readRelayGauges, type Storage } from "../src";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");

// One in-memory database for the file, its tests in order.
describe("what the relay's metrics read from the storage (issue 33)", () => {
  const calls: { operation: string; failed: boolean }[] = [];
  let storage: Storage;

  beforeAll(async () => {
    storage = await openStorage({
      driver: "pglite",
      dataDir: "memory://",
      onStoreCall: (operation, ms, failed) => {
        expect(ms).toBeGreaterThanOrEqual(0);
        calls.push({ operation, failed });
      },
    });
  });
  afterAll(() => storage.close());

  it("an empty database reads zeros, and PGlite has its one connection", async () => {
    expect(await readRelayGauges(storage)).toEqual({
      queuedTurns: 0,
      runningTurns: 0,
      lastEventSeq: 0,
      routedSeq: 0,
    });
    expect(storage.maxConnections).toBe(1);
  });

  it("queued and running turns are counted; the outbox head and the routing cursor are read as they stand", async () => {
    const { sessions, events } = storage.stores;
    await sessions.createSession(newSession("ses_1"));
    await sessions.enqueueTurns([newTurn("trn_1", "ses_1"), newTurn("trn_2", "ses_1")]);
    await sessions.claimNextTurn({ sessionId: "ses_1", now: T0 });
    await events.appendEvent(newOutboxEvent("evt_1"));
    await events.appendEvent(newOutboxEvent("evt_2"));
    await events.appendEvent(newOutboxEvent("evt_3"));
    await storage.stores.transaction(async (tx) => {
      expect(await tx.deliveries.claimCursor()).toBe(0);
      await tx.deliveries.setCursor(2);
    });
    expect(await readRelayGauges(storage)).toEqual({
      queuedTurns: 1,
      runningTurns: 1,
      lastEventSeq: 3,
      routedSeq: 2,
    });
  });

  it("each store call and transaction is timed by its port and method, failures marked", async () => {
    calls.length = 0;
    await storage.stores.sessions.getSession("ses_1");
    await storage.stores.transaction((tx) => tx.sessions.getSession("ses_1"));
    const failing = await storage.stores.sessions.createSession(newSession("ses_1")).then(
      () => "created",
      () => "refused",
    );
    expect(failing).toBe("refused");
    expect(calls).toEqual([
      { operation: "SessionStore.getSession", failed: false },
      { operation: "SessionStore.getSession", failed: false },
      { operation: "transaction", failed: false },
      { operation: "SessionStore.createSession", failed: true },
    ]);
  });
});
