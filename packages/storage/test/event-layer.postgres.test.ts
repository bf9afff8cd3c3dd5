import { newOutboxEvent } from "@oar/engine/testing";
import { newDelivery, newSubscription } from "@oar/scheduler/testing";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Stores } from "../src";
import { postgresDatabase } from "./databases";
import { gate, sleep, stillPending, useTwoProcesses } from "./holding";

const T0 = Date.UTC(2026, 0, 1);
const ROUNDS = 10;

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) {
      throw new Error(`Not seen within ${ms} ms.`);
    }
    await sleep(20);
  }
}

// What PGlite's single connection cannot show (DESIGN §9): several relay processes on one
// Postgres, each with its own pool, sharing the outbox, the routing cursor and the deliveries.
describe.skipIf(!postgresDatabase.available)("the event layer on Postgres with several processes", () => {
  const { a, b, other } = useTwoProcesses();

  describe("the routing cursor", () => {
    it("is held by one transaction: another one's claim gets null, not a wait", async () => {
      await a().deliveries.setCursor(7);
      const held = gate();
      const claimed = gate();
      const first = a().transaction(async (tx) => {
        const seq = await tx.deliveries.claimCursor();
        claimed.open();
        await held.opened;
        await tx.deliveries.setCursor(9);
        return seq;
      });
      await claimed.opened;
      expect(await b().transaction((tx) => tx.deliveries.claimCursor())).toBeNull();
      held.open();
      expect(await first).toBe(7);
      expect(await b().transaction((tx) => tx.deliveries.claimCursor())).toBe(9);
    });

    it("goes to exactly one of two transactions claiming at once", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const both = gate();
        let claims = 0;
        const claim = (stores: Stores) =>
          stores.transaction(async (tx) => {
            const seq = await tx.deliveries.claimCursor();
            if (++claims === 2) {
              both.open();
            }
            await both.opened;
            return seq;
          });
        const results = await Promise.all([claim(a()), claim(b())]);
        expect(results.filter((seq) => seq !== null)).toEqual([0]);
      }
    });
  });

  describe("sending", () => {
    it("never gives one watcher to two transactions claiming at once", async () => {
      const watchers = ["ses_a", "ses_b", "ses_c", "ses_d", "ses_e", "ses_f"];
      for (let round = 0; round < ROUNDS; round++) {
        await a().deliveries.addDeliveries(
          watchers.flatMap((watcher, w) =>
            [1, 2].map((n) =>
              newDelivery(`dlv_${round}_${watcher}_${n}`, {
                watcher,
                eventSeq: round * 10 + n,
                eventId: `evt_${round}_${n}`,
                dueAt: T0 + w,
              }),
            ),
          ),
        );
        const both = gate();
        let claims = 0;
        const claim = (stores: Stores) =>
          stores.transaction(async (tx) => {
            const claimed = await tx.deliveries.claimDueDeliveries({ now: T0 + 100, watchers: 4 });
            if (++claims === 2) {
              both.open();
            }
            await both.opened;
            const ids = claimed.map((d) => d.id);
            await tx.deliveries.markSent({ messages: [{ messageId: `msg_${round}`, ids }], at: T0 + 100 });
            return claimed;
          });
        const [first, second] = await Promise.all([claim(a()), claim(b())]);
        const watchersOf = (claimed: readonly { watcher: string }[]) =>
          new Set(claimed.map((d) => d.watcher));
        const firstWatchers = watchersOf(first);
        for (const watcher of watchersOf(second)) {
          expect(firstWatchers.has(watcher)).toBe(false);
        }
        // Each claim takes every due delivery of the watchers it got.
        for (const claimed of [first, second]) {
          for (const watcher of watchersOf(claimed)) {
            expect(claimed.filter((d) => d.watcher === watcher)).toHaveLength(2);
          }
        }
        expect(firstWatchers.size + watchersOf(second).size).toBe(watchers.length);
        expect(await a().deliveries.claimDueDeliveries({ now: T0 + 100, watchers: 10 })).toEqual([]);
      }
    });

    /** A transaction on `a` that claims, holds its claim until released, then marks what it claimed sent. */
    const holdingClaim = (claim: { watchers: number; among?: string[] }, messageId: string) => {
      const held = gate();
      const claimed = gate();
      const done = a().transaction(async (tx) => {
        const deliveries =
          claim.among === undefined
            ? await tx.deliveries.claimDueDeliveries({ now: T0, watchers: claim.watchers })
            : (await tx.deliveries.claimAmong({ now: T0, among: claim.among, limit: claim.watchers })).due;
        claimed.open();
        await held.opened;
        await tx.deliveries.markSent({ messages: [{ messageId, ids: deliveries.map((d) => d.id) }], at: T0 });
        return deliveries;
      });
      return { claimed: claimed.opened, release: () => held.open(), done };
    };

    it("skips a watcher another transaction is sending to, and never claims what it sent", async () => {
      await a().deliveries.addDeliveries([
        newDelivery("dlv_1", { dueAt: T0 }),
        newDelivery("dlv_2", { eventSeq: 2, dueAt: T0 }),
      ]);
      const first = holdingClaim({ watchers: 1 }, "msg_1");
      await first.claimed;
      expect(
        await b().transaction((tx) => tx.deliveries.claimDueDeliveries({ now: T0, watchers: 1 })),
      ).toEqual([]);
      first.release();
      expect((await first.done).map((d) => d.id)).toEqual(["dlv_1", "dlv_2"]);
      expect(
        await b().transaction((tx) => tx.deliveries.claimDueDeliveries({ now: T0, watchers: 1 })),
      ).toEqual([]);
    });

    it("among given watchers, skips one another transaction is sending to and never claims what it sent", async () => {
      await a().deliveries.addDeliveries([
        newDelivery("dlv_a", { watcher: "ses_a", eventId: "evt_1", dueAt: T0 }),
        newDelivery("dlv_b", { watcher: "ses_b", eventId: "evt_1", dueAt: T0 }),
      ]);
      const first = holdingClaim({ watchers: 10, among: ["ses_a"] }, "msg_a");
      await first.claimed;
      const among = ["ses_a", "ses_b"];
      const second = await b().transaction((tx) => tx.deliveries.claimAmong({ now: T0, among, limit: 10 }));
      expect([second.watchers, second.due.map((d) => d.id)]).toEqual([["ses_b"], ["dlv_b"]]);
      first.release();
      expect((await first.done).map((d) => d.id)).toEqual(["dlv_a"]);
      // Its rows were read in the same flight as the lock, yet what the first transaction sent is seen as sent.
      expect(
        (await b().transaction((tx) => tx.deliveries.claimAmong({ now: T0, among: ["ses_a"], limit: 10 })))
          .due,
      ).toEqual([]);
    });

    it("never gives one subscription's tick to two transactions claiming at once", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        for (const n of [1, 2, 3, 4]) {
          await a().subscriptions.createSubscription(
            newSubscription(`sub_${round}_${n}`, { nextTickAt: T0 + n }),
          );
        }
        const both = gate();
        let claims = 0;
        const claim = (stores: Stores) =>
          stores.transaction(async (tx) => {
            const due = await tx.subscriptions.claimDueTicks({ now: T0 + 10, limit: 3 });
            if (++claims === 2) {
              both.open();
            }
            await both.opened;
            for (const subscription of due) {
              await tx.subscriptions.setTiming(subscription.id, { nextTickAt: T0 + 1_000 });
            }
            return due.map((s) => s.id);
          });
        const [first, second] = await Promise.all([claim(a()), claim(b())]);
        expect([...first, ...second].sort()).toEqual([1, 2, 3, 4].map((n) => `sub_${round}_${n}`));
      }
    });
  });

  describe("the outbox", () => {
    it("gives seqs in commit order: a second appender waits, and a reader never sees its seq alone", async () => {
      const committed = gate();
      const appended = gate();
      const first = a().transaction(async (tx) => {
        const record = await tx.events.appendEvent(newOutboxEvent("evt_1"));
        appended.open();
        await committed.opened;
        return record?.seq;
      });
      await appended.opened;
      const secondCommit = gate();
      const secondAppended = gate();
      const second = b().transaction(async (tx) => {
        const record = await tx.events.appendEvent(newOutboxEvent("evt_2"));
        secondAppended.open();
        await secondCommit.opened;
        return record?.seq;
      });
      expect(await stillPending(secondAppended.opened)).toBe(true);
      expect(await a().events.listEvents({ after: 0, limit: 10 })).toEqual([]);

      committed.open();
      expect(await first).toBe(1);
      await secondAppended.opened;
      expect((await b().events.listEvents({ after: 0, limit: 10 })).map((e) => e.seq)).toEqual([1]);
      secondCommit.open();
      expect(await second).toBe(2);
      expect((await a().events.listEvents({ after: 0, limit: 10 })).map((e) => e.id)).toEqual([
        "evt_1",
        "evt_2",
      ]);
    });

    it("gives a rolled-back append's seq to the appender that waited on it", async () => {
      const appended = gate();
      const rollBack = gate();
      const first = a()
        .transaction(async (tx) => {
          await tx.events.appendEvent(newOutboxEvent("evt_lost"));
          appended.open();
          await rollBack.opened;
          throw new Error("rolled back");
        })
        .catch(() => "rolled back");
      await appended.opened;
      const second = b().transaction(
        async (tx) => (await tx.events.appendEvent(newOutboxEvent("evt_kept")))?.seq,
      );
      rollBack.open();
      expect(await first).toBe("rolled back");
      expect(await second).toBe(1);
      expect(await a().events.lastEventSeq()).toBe(1);
    });

    it("stores an id appended by two transactions at once once, and takes one seq", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const id = `evt_same_${round}`;
        const results = await Promise.all(
          [a(), b()].map((stores) =>
            stores.transaction(async (tx) => {
              const record = await tx.events.appendEvent(newOutboxEvent(id));
              await sleep(20);
              return record;
            }),
          ),
        );
        expect(results.filter((record) => record !== null)).toHaveLength(1);
        expect(await a().events.lastEventSeq()).toBe(round + 1);
      }
    });

    it("a reader polling while many processes append sees every seq in order, never one after a gap", async () => {
      const total = 40;
      let cursor = 0;
      const seen: number[] = [];
      let done = false;
      const reader = (async () => {
        while (!done || cursor < total) {
          const batch = await a().events.listEvents({ after: cursor, limit: 100 });
          for (const record of batch) {
            expect(record.seq).toBe(cursor + 1);
            cursor = record.seq;
            seen.push(record.seq);
          }
          await sleep(1);
        }
      })();
      await Promise.all(
        Array.from({ length: total }, (_, i) =>
          (i % 2 === 0 ? a() : b()).transaction(async (tx) => {
            await sleep((i * 7) % 13);
            await tx.events.appendEvent(newOutboxEvent(`evt_${i}`));
            // Work after the append, of varying length: commits come in any order the lock allows.
            await sleep((i * 5) % 11);
          }),
        ),
      );
      done = true;
      await reader;
      expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    });

    it("tells another process's listeners when events were appended, at commit", async () => {
      let heard = 0;
      const stop = a().events.onForeignEvents?.(() => {
        heard++;
      });
      expect(stop).toBeTypeOf("function");
      await waitFor(() => heard > 0); // LISTEN is in place once the first hint (its onlisten) came
      heard = 0;

      const commit = gate();
      const appended = gate();
      const appending = b().transaction(async (tx) => {
        await tx.events.appendEvent(newOutboxEvent("evt_1"));
        appended.open();
        await commit.opened;
      });
      await appended.opened;
      await sleep(200);
      expect(heard).toBe(0);
      commit.open();
      await appending;
      await waitFor(() => heard > 0);

      stop?.();
      heard = 0;
      await b().events.appendEvent(newOutboxEvent("evt_2"));
      await sleep(300);
      expect(heard).toBe(0);
    });

    it("keeps listening after its connection is cut: postgres.js listens again and the listeners hear it", async () => {
      let heard = 0;
      const stop = a().events.onForeignEvents?.(() => {
        heard++;
      });
      try {
        await waitFor(() => heard > 0);
        // From the other pool: end the backend that LISTENs, as a restart or a cut would.
        await other().db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
        );
        heard = 0;
        // The re-listen calls the listeners (events may have been missed meanwhile)…
        await waitFor(() => heard > 0);
        heard = 0;
        // …and later appends are heard again.
        await b().events.appendEvent(newOutboxEvent("evt_after_cut"));
        await waitFor(() => heard > 0);
      } finally {
        stop?.();
      }
    });
  });
});
