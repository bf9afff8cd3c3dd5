import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/core/testing";
import type { OutboxEvent } from "@oar/schema";
import { describe, expect, it } from "vitest";
import type { EventStore, NewOutboxEvent } from "../ports/event-store";

/**
 * An EventStore fixture. `transaction`, when the store has them, runs `work` on the store bound to
 * one transaction that rolls back if `work` throws.
 */
export interface EventStoreFixture extends ContractFixture<EventStore> {
  readonly transaction?: <T>(work: (store: EventStore) => Promise<T>) => Promise<T>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A turn_started event of `sessionId`, the outbox row every turn writes. */
export function newOutboxEvent(
  id: string,
  overrides: Partial<Omit<NewOutboxEvent, "event">> & { readonly at?: number } = {},
): NewOutboxEvent {
  const at = overrides.at ?? T0;
  const sessionId = overrides.sessionId === undefined ? "ses_1" : overrides.sessionId;
  const event: OutboxEvent = {
    id,
    kind: "turn_started",
    at: iso(at),
    session: sessionId ?? "ses_1",
    title: `Session ${sessionId}`,
    turn_id: `trn_${id}`,
  };
  return { id, sessionId, event, at, ...overrides };
}

/** The behaviour every EventStore must have: the outbox (DESIGN §3, §9). */
export function runEventStoreContract(setup: ContractSetup<EventStoreFixture>): void {
  describe("EventStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const seqs = (records: readonly { seq: number }[]) => records.map((r) => r.seq);
    const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);

    it("appends events with seqs 1, 2, 3… and reads them back whole", async () => {
      expect(await store().lastEventSeq()).toBe(0);
      const first = await store().appendEvent(newOutboxEvent("evt_1", { at: T0 + 5 }));
      expect(first).toEqual({
        seq: 1,
        id: "evt_1",
        kind: "turn_started",
        sessionId: "ses_1",
        subscriptionId: null,
        event: {
          id: "evt_1",
          kind: "turn_started",
          at: iso(T0 + 5),
          session: "ses_1",
          title: "Session ses_1",
          turn_id: "trn_evt_1",
        },
        at: T0 + 5,
      });
      const second = await store().appendEvent(newOutboxEvent("evt_2", { sessionId: "ses_2" }));
      expect(second?.seq).toBe(2);
      expect(await store().listEvents({ after: 0, limit: 10 })).toEqual([first, second]);
      expect(await store().lastEventSeq()).toBe(2);
    });

    it("keeps a subscription-wide event: no session, its subscription named", async () => {
      const event: OutboxEvent = {
        id: "evt_idle",
        kind: "all_idle",
        at: iso(T0),
        session: null,
        title: null,
        subscription_id: "sub_1",
        watchedCount: 3,
      };
      const record = await store().appendEvent({
        id: "evt_idle",
        sessionId: null,
        subscriptionId: "sub_1",
        event,
        at: T0,
      });
      expect(record).toMatchObject({ kind: "all_idle", sessionId: null, subscriptionId: "sub_1", event });
      expect(await store().getEvents(["evt_idle"])).toEqual([record]);
    });

    it("stores an event id once: a second append gives null, writes nothing and takes no seq", async () => {
      const first = await store().appendEvent(newOutboxEvent("evt_1"));
      expect(
        await store().appendEvent(newOutboxEvent("evt_1", { sessionId: "ses_other", at: T0 + 9 })),
      ).toBeNull();
      expect(await store().lastEventSeq()).toBe(1);
      expect(await store().listEvents({ after: 0, limit: 10 })).toEqual([first]);
      expect((await store().appendEvent(newOutboxEvent("evt_2")))?.seq).toBe(2);
    });

    it("lists the events after a seq, oldest first, at most `limit`", async () => {
      for (const n of [1, 2, 3, 4, 5]) {
        await store().appendEvent(newOutboxEvent(`evt_${n}`, { at: T0 + (10 - n) }));
      }
      expect(seqs(await store().listEvents({ after: 0, limit: 100 }))).toEqual([1, 2, 3, 4, 5]);
      expect(seqs(await store().listEvents({ after: 2, limit: 100 }))).toEqual([3, 4, 5]);
      expect(seqs(await store().listEvents({ after: 1, limit: 2 }))).toEqual([2, 3]);
      expect(ids(await store().listEvents({ after: 4, limit: 2 }))).toEqual(["evt_5"]);
      expect(await store().listEvents({ after: 5, limit: 10 })).toEqual([]);
      expect(await store().listEvents({ after: 0, limit: 0 })).toEqual([]);
    });

    it("gets events by id, in seq order, leaving out unknown ids", async () => {
      for (const n of [1, 2, 3]) {
        await store().appendEvent(newOutboxEvent(`evt_${n}`));
      }
      expect(ids(await store().getEvents(["evt_3", "evt_missing", "evt_1"]))).toEqual(["evt_1", "evt_3"]);
      expect(await store().getEvents([])).toEqual([]);
    });

    it("reports the highest seq stored", async () => {
      expect(await store().lastEventSeq()).toBe(0);
      await store().appendEvent(newOutboxEvent("evt_1"));
      await store().appendEvent(newOutboxEvent("evt_2"));
      await store().appendEvent(newOutboxEvent("evt_1"));
      expect(await store().lastEventSeq()).toBe(2);
    });

    it("gives the highest seq of an event appended before a time, or 0", async () => {
      expect(await store().lastSeqBefore(T0 + 1_000)).toBe(0);
      await store().appendEvent(newOutboxEvent("evt_1", { at: T0 }));
      await store().appendEvent(newOutboxEvent("evt_2", { at: T0 + 500 }));
      // Appended after, with an older time (its transaction took it earlier): it counts by its time.
      await store().appendEvent(newOutboxEvent("evt_3", { at: T0 + 200 }));
      await store().appendEvent(newOutboxEvent("evt_4", { at: T0 + 1_000 }));
      expect(await store().lastSeqBefore(T0)).toBe(0);
      expect(await store().lastSeqBefore(T0 + 300)).toBe(3);
      expect(await store().lastSeqBefore(T0 + 1_000)).toBe(3);
      expect(await store().lastSeqBefore(T0 + 1_001)).toBe(4);
    });

    it("says whether the event of a seq is still stored", async () => {
      expect(await store().hasEventSeq(1)).toBe(false);
      await store().appendEvent(newOutboxEvent("evt_1"));
      await store().appendEvent(newOutboxEvent("evt_2"));
      expect(await store().hasEventSeq(1)).toBe(true);
      expect(await store().hasEventSeq(2)).toBe(true);
      expect(await store().hasEventSeq(3)).toBe(false);
    });

    it("stops listening for foreign events when asked, if it listens at all", () => {
      const stop = store().onForeignEvents?.(() => {});
      stop?.();
      stop?.();
    });

    it("leaves no gap behind an append whose transaction failed", async () => {
      const transaction = fixture().transaction;
      if (transaction === undefined) {
        return;
      }
      await store().appendEvent(newOutboxEvent("evt_1"));
      await expect(
        transaction(async (tx) => {
          expect((await tx.appendEvent(newOutboxEvent("evt_lost")))?.seq).toBe(2);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().lastEventSeq()).toBe(1);
      expect(await store().getEvents(["evt_lost"])).toEqual([]);
      expect((await store().appendEvent(newOutboxEvent("evt_2")))?.seq).toBe(2);
      expect(seqs(await store().listEvents({ after: 0, limit: 10 }))).toEqual([1, 2]);
    });
  });
}
