import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import type { DeliveryRecord, DeliveryStore, NewDelivery } from "../ports/delivery-store";

/**
 * A DeliveryStore fixture. `transaction`, when the store has them, runs `work` on the store bound
 * to one transaction that rolls back if `work` throws.
 */
export interface DeliveryStoreFixture extends ContractFixture<DeliveryStore> {
  readonly transaction?: <T>(work: (store: DeliveryStore) => Promise<T>) => Promise<T>;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** A `window` delivery of event `evt_<seq>` to ses_w, due 30 s after T0; the fields a test sets win. */
export function newDelivery(id: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  const eventSeq = overrides.eventSeq ?? 1;
  return {
    id,
    watcher: "ses_w",
    subscriptionId: "sub_1",
    eventId: `evt_${eventSeq}`,
    eventSeq,
    reason: "window",
    dueAt: T0 + 30 * SECOND,
    echoTurnId: null,
    createdAt: T0,
    ...overrides,
  };
}

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);

/** The behaviour every DeliveryStore must have: events on their way to watchers (DESIGN §3, §9). */
export function runDeliveryStoreContract(setup: ContractSetup<DeliveryStoreFixture>): void {
  describe("DeliveryStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const windowEnd = async (watcher: string) =>
      (await store().openWindowEnds([watcher])).get(watcher) ?? null;
    const FAR = T0 + 24 * 60 * MINUTE;
    const claimAll = (now = FAR) => store().claimDueDeliveries({ now, watchers: 100 });

    describe("the routing cursor", () => {
      it("starts at 0 and keeps what it is set to", async () => {
        expect(await store().claimCursor()).toBe(0);
        await store().setCursor(42);
        expect(await store().claimCursor()).toBe(42);
        await store().setCursor(43);
        expect(await store().claimCursor()).toBe(43);
      });
    });

    describe("storing deliveries", () => {
      it("stores pending deliveries and gives them back whole when due", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { echoTurnId: "trn_7", createdAt: T0 + 1 }),
          newDelivery("dlv_2", { eventSeq: 2, subscriptionId: null, reason: "urgent", dueAt: T0 }),
        ]);
        const expected: DeliveryRecord[] = [
          {
            id: "dlv_1",
            watcher: "ses_w",
            subscriptionId: "sub_1",
            eventId: "evt_1",
            eventSeq: 1,
            reason: "window",
            dueAt: T0 + 30 * SECOND,
            echoTurnId: "trn_7",
            status: "pending",
            messageId: null,
            createdAt: T0 + 1,
          },
          {
            id: "dlv_2",
            watcher: "ses_w",
            subscriptionId: null,
            eventId: "evt_2",
            eventSeq: 2,
            reason: "urgent",
            dueAt: T0,
            echoTurnId: null,
            status: "pending",
            messageId: null,
            createdAt: T0,
          },
        ];
        expect(await claimAll()).toEqual(expected);
      });

      it("stores a (watcher, event) once, whatever the delivery's id, in one call or two", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1"),
          newDelivery("dlv_1_again", { reason: "urgent" }),
          newDelivery("dlv_other_watcher", { watcher: "ses_v" }),
        ]);
        await store().addDeliveries([newDelivery("dlv_1_later", { dueAt: T0 })]);
        await store().addDeliveries([]);
        const stored = await claimAll();
        expect(ids(stored)).toEqual(["dlv_other_watcher", "dlv_1"]);
        expect(stored[1]).toMatchObject({ reason: "window", dueAt: T0 + 30 * SECOND });
      });

      it("stores a delivery already sent with its message, or dropped: settled, it is never claimed", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { dueAt: T0, reason: "urgent", status: "sent", messageId: "msg_1" }),
          newDelivery("dlv_2", { eventSeq: 2, dueAt: T0, status: "dropped" }),
          newDelivery("dlv_3", { eventSeq: 3, dueAt: T0 }),
        ]);
        expect(ids(await claimAll())).toEqual(["dlv_3"]);
        expect(await store().nextDeliveryDueAt()).toBe(T0);
        // Stored again, a settled (watcher, event) stays as it was.
        await store().addDeliveries([newDelivery("dlv_1_again", { dueAt: T0 })]);
        expect(ids(await claimAll())).toEqual(["dlv_3"]);
      });

      it("tells which (watcher, event) pairs are stored, whatever their status", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { status: "sent", messageId: "msg_1" }),
          newDelivery("dlv_2", { eventSeq: 2 }),
          newDelivery("dlv_v1", { watcher: "ses_v" }),
        ]);
        const stored = await store().storedPairs({
          watchers: ["ses_w", "ses_x"],
          eventIds: ["evt_1", "evt_2", "evt_9"],
        });
        expect(stored.map((pair) => `${pair.watcher}/${pair.eventId}`).sort()).toEqual([
          "ses_w/evt_1",
          "ses_w/evt_2",
        ]);
        expect(await store().storedPairs({ watchers: [], eventIds: ["evt_1"] })).toEqual([]);
      });

      it("keeps a sent or dropped delivery's (watcher, event): it is never stored again", async () => {
        await store().addDeliveries([newDelivery("dlv_1"), newDelivery("dlv_2", { eventSeq: 2 })]);
        await store().markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_1"] }], at: T0 + MINUTE });
        await store().markDropped({ ids: ["dlv_2"], at: T0 + MINUTE });
        await store().addDeliveries([
          newDelivery("dlv_1_again"),
          newDelivery("dlv_2_again", { eventSeq: 2 }),
        ]);
        expect(await claimAll()).toEqual([]);
      });
    });

    describe("grouping windows", () => {
      it("gives the end of the watcher's open window, or null", async () => {
        expect(await windowEnd("ses_w")).toBeNull();
        await store().addDeliveries([
          newDelivery("dlv_digest", { eventSeq: 1, reason: "digest", dueAt: T0 + 10 * MINUTE }),
          newDelivery("dlv_other", { eventSeq: 2, watcher: "ses_v", dueAt: T0 + 5 * SECOND }),
        ]);
        expect(await windowEnd("ses_w")).toBeNull();
        await store().addDeliveries([
          newDelivery("dlv_1", { eventSeq: 3 }),
          newDelivery("dlv_2", { eventSeq: 4, createdAt: T0 + 10 * SECOND }),
        ]);
        expect(await windowEnd("ses_w")).toBe(T0 + 30 * SECOND);
        expect(await windowEnd("ses_v")).toBe(T0 + 5 * SECOND);
        // Several watchers in one call: those without an open window are absent.
        expect(await store().openWindowEnds(["ses_w", "ses_v", "ses_none"])).toEqual(
          new Map([
            ["ses_w", T0 + 30 * SECOND],
            ["ses_v", T0 + 5 * SECOND],
          ]),
        );
        expect(await store().openWindowEnds([])).toEqual(new Map());
        await store().markSent({
          messages: [{ messageId: "msg_1", ids: ["dlv_1", "dlv_2"] }],
          at: T0 + 30 * SECOND,
        });
        expect(await windowEnd("ses_w")).toBeNull();
      });

      it("an urgent event closes the window: its deliveries become due at once, the others stay", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { eventSeq: 1 }),
          newDelivery("dlv_2", { eventSeq: 2 }),
          newDelivery("dlv_digest", { eventSeq: 3, reason: "digest", dueAt: T0 + 10 * MINUTE }),
          newDelivery("dlv_other", { eventSeq: 4, watcher: "ses_v" }),
        ]);
        await store().closeWindows({ watchers: ["ses_w"], at: T0 + 5 * SECOND });
        expect(ids(await claimAll(T0 + 5 * SECOND))).toEqual(["dlv_1", "dlv_2"]);
        expect(await windowEnd("ses_w")).toBe(T0 + 5 * SECOND);
        expect(await windowEnd("ses_v")).toBe(T0 + 30 * SECOND);
        expect(ids(await claimAll(T0 + 30 * SECOND))).toEqual(["dlv_other", "dlv_1", "dlv_2"]);
      });

      it("closing a window before a seq leaves the window a later event reopened", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { eventSeq: 1 }),
          newDelivery("dlv_5", { eventSeq: 5, dueAt: T0 + 35 * SECOND }),
        ]);
        await store().closeWindows({ watchers: ["ses_w"], at: T0 + 5 * SECOND, before: 5 });
        expect(ids(await claimAll(T0 + 5 * SECOND))).toEqual(["dlv_1"]);
        expect(await windowEnd("ses_w")).toBe(T0 + 35 * SECOND);
      });
    });

    describe("claiming due deliveries", () => {
      it("gives every pending delivery due at `now`, by watcher, then event", async () => {
        await store().addDeliveries([
          newDelivery("dlv_w3", { watcher: "ses_w", eventSeq: 3, dueAt: T0 }),
          newDelivery("dlv_v2", { watcher: "ses_v", eventSeq: 2, dueAt: T0 + SECOND }),
          newDelivery("dlv_w1", { watcher: "ses_w", eventSeq: 1, dueAt: T0 + SECOND }),
          newDelivery("dlv_v5", { watcher: "ses_v", eventSeq: 5, dueAt: T0 }),
          newDelivery("dlv_w_later", { watcher: "ses_w", eventSeq: 4, dueAt: T0 + MINUTE }),
          newDelivery("dlv_sent", { watcher: "ses_w", eventSeq: 6, dueAt: T0 }),
        ]);
        await store().markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_sent"] }], at: T0 });
        expect(ids(await claimAll(T0 + SECOND))).toEqual(["dlv_v2", "dlv_v5", "dlv_w1", "dlv_w3"]);
        expect(ids(await claimAll(T0))).toEqual(["dlv_v5", "dlv_w3"]);
        expect(await claimAll(T0 - 1)).toEqual([]);
      });

      it("claims all the due deliveries of at most `watchers` watchers", async () => {
        await store().addDeliveries([
          newDelivery("dlv_a1", { watcher: "ses_a", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_a2", { watcher: "ses_a", eventSeq: 2, dueAt: T0 }),
          newDelivery("dlv_b1", { watcher: "ses_b", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_c1", { watcher: "ses_c", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_c2", { watcher: "ses_c", eventSeq: 2, dueAt: T0 }),
        ]);
        const byWatcher = (records: readonly DeliveryRecord[]) =>
          Object.fromEntries(
            [...new Set(records.map((r) => r.watcher))].map((w) => [
              w,
              ids(records.filter((r) => r.watcher === w)),
            ]),
          );
        const expected: Record<string, string[]> = {
          ses_a: ["dlv_a1", "dlv_a2"],
          ses_b: ["dlv_b1"],
          ses_c: ["dlv_c1", "dlv_c2"],
        };
        const seen: string[] = [];
        for (const round of [1, 2]) {
          const claimed = byWatcher(await store().claimDueDeliveries({ now: T0, watchers: 2 }));
          const watchers = Object.keys(claimed);
          expect(watchers).toHaveLength(round === 1 ? 2 : 1);
          for (const watcher of watchers) {
            expect(claimed[watcher]).toEqual(expected[watcher]);
            await store().markSent({
              messages: [{ messageId: `msg_${watcher}`, ids: claimed[watcher] ?? [] }],
              at: T0,
            });
          }
          seen.push(...watchers);
        }
        expect(seen.sort()).toEqual(["ses_a", "ses_b", "ses_c"]);
        expect(await store().claimDueDeliveries({ now: T0, watchers: 2 })).toEqual([]);
        expect(await store().claimDueDeliveries({ now: T0, watchers: 0 })).toEqual([]);
      });

      it("with `after`, claims only watchers whose earliest pending delivery is due after it", async () => {
        await store().addDeliveries([
          newDelivery("dlv_late", { watcher: "ses_late", eventSeq: 1, dueAt: T0 - SECOND }),
          newDelivery("dlv_late2", { watcher: "ses_late", eventSeq: 2, dueAt: T0 + SECOND }),
          newDelivery("dlv_edge", { watcher: "ses_edge", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_next", { watcher: "ses_next", eventSeq: 1, dueAt: T0 + SECOND }),
          newDelivery("dlv_next2", { watcher: "ses_next", eventSeq: 2, dueAt: T0 + MINUTE }),
        ]);
        const claimed = await store().claimDueDeliveries({ now: T0 + SECOND, watchers: 10, after: T0 });
        expect(ids(claimed)).toEqual(["dlv_next"]);
        expect(
          ids(await store().claimDueDeliveries({ now: T0 + SECOND, watchers: 10, after: T0 - 1 })),
        ).toEqual(["dlv_edge", "dlv_next"]);
      });

      it("lists the watchers' pending deliveries due at `now`, by watcher, then event", async () => {
        await store().addDeliveries([
          newDelivery("dlv_w2", { watcher: "ses_w", eventSeq: 2, dueAt: T0 }),
          newDelivery("dlv_w1", { watcher: "ses_w", eventSeq: 1, dueAt: T0 - SECOND }),
          newDelivery("dlv_w3", { watcher: "ses_w", eventSeq: 3, dueAt: T0 + 1 }),
          newDelivery("dlv_v1", { watcher: "ses_v", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_u1", { watcher: "ses_u", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_w4", { watcher: "ses_w", eventSeq: 4, dueAt: T0 }),
        ]);
        await store().markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_w4"] }], at: T0 });
        expect(ids(await store().listDueOf({ watchers: ["ses_w", "ses_v"], now: T0 }))).toEqual([
          "dlv_v1",
          "dlv_w1",
          "dlv_w2",
        ]);
        expect(await store().listDueOf({ watchers: [], now: T0 })).toEqual([]);
        // Listed, not claimed: they are still there for a sender.
        expect(ids(await claimAll(T0))).toEqual(["dlv_u1", "dlv_v1", "dlv_w1", "dlv_w2"]);
      });

      it("among given watchers, claims only theirs, in watcher order, up to the limit", async () => {
        await store().addDeliveries([
          newDelivery("dlv_a1", { watcher: "ses_a", eventId: "evt_1", eventSeq: 1, dueAt: T0 - 5 }),
          newDelivery("dlv_b1", { watcher: "ses_b", eventId: "evt_1", eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_c1", { watcher: "ses_c", eventId: "evt_1", eventSeq: 1, dueAt: T0 - 9 }),
          newDelivery("dlv_c2", { watcher: "ses_c", eventId: "evt_2", eventSeq: 2, dueAt: T0 }),
          newDelivery("dlv_c3", { watcher: "ses_c", eventId: "evt_3", eventSeq: 3, dueAt: T0 + 1 }),
        ]);
        const claim = (among: string[], limit = 10) => store().claimAmong({ now: T0, among, limit });
        expect(await claim([])).toEqual({ watchers: [], due: [] });
        // ses_c waited longest, yet among given watchers the order is the watchers'.
        const first = await claim(["ses_c", "ses_b"], 1);
        expect([first.watchers, ids(first.due)]).toEqual([["ses_b"], ["dlv_b1"]]);
        const both = await claim(["ses_c", "ses_b"]);
        expect([both.watchers, ids(both.due)]).toEqual([
          ["ses_b", "ses_c"],
          ["dlv_b1", "dlv_c1", "dlv_c2"],
        ]);
        expect(ids(await claimAll(T0))).toEqual(["dlv_a1", "dlv_b1", "dlv_c1", "dlv_c2"]);
      });

      it("among given watchers, one with nothing stored yet is claimed all the same", async () => {
        await store().addDeliveries([newDelivery("dlv_b1", { watcher: "ses_b", dueAt: T0 })]);
        // In a transaction, as routing claims: the lock row it makes and the lock go out on one connection.
        const inTransaction = fixture().transaction ?? ((work) => work(store()));
        const claimed = await inTransaction((tx) =>
          tx.claimAmong({ now: T0, among: ["ses_new", "ses_b"], limit: 10 }),
        );
        expect([claimed.watchers, ids(claimed.due)]).toEqual([["ses_b", "ses_new"], ["dlv_b1"]]);
      });

      it("among given watchers, a closing window is claimed as if due: only its window rows before the seq", async () => {
        await store().addDeliveries([
          newDelivery("dlv_w1", { eventSeq: 1 }),
          newDelivery("dlv_w2", { eventSeq: 2, reason: "digest", dueAt: T0 + 10 * MINUTE }),
          newDelivery("dlv_w5", { eventSeq: 5, reason: "urgent", dueAt: T0 }),
          newDelivery("dlv_w6", { eventSeq: 6, dueAt: T0 + 30 * SECOND }),
          newDelivery("dlv_v1", { eventSeq: 1, watcher: "ses_v" }),
          newDelivery("dlv_v5", { eventSeq: 5, watcher: "ses_v", reason: "urgent", dueAt: T0 }),
        ]);
        const claimed = await store().claimAmong({
          now: T0,
          among: ["ses_v", "ses_w"],
          limit: 10,
          closing: { watchers: ["ses_w"], before: 5 },
        });
        // ses_v's window was not closing: its window row stays pending, not due.
        expect(ids(claimed.due)).toEqual(["dlv_v5", "dlv_w1", "dlv_w5"]);
        expect(await windowEnd("ses_v")).toBe(T0 + 30 * SECOND);
      });
    });

    describe("settling deliveries", () => {
      it("a delivery marked sent or dropped is no longer pending; a settled one stays as it is", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { eventSeq: 1 }),
          newDelivery("dlv_2", { eventSeq: 2 }),
          newDelivery("dlv_3", { eventSeq: 3 }),
        ]);
        await store().markSent({
          messages: [{ messageId: "msg_1", ids: ["dlv_1", "dlv_missing"] }],
          at: T0 + MINUTE,
        });
        await store().markDropped({ ids: ["dlv_2"], at: T0 + MINUTE });
        expect(ids(await claimAll())).toEqual(["dlv_3"]);
        // Neither a late drop nor a postponement brings a sent delivery back.
        await store().markDropped({ ids: ["dlv_1"], at: T0 + 2 * MINUTE });
        await store().postpone({ ids: ["dlv_1", "dlv_2"], dueAt: T0, reason: "cap" });
        await store().markSent({ messages: [{ messageId: "msg_2", ids: [] }], at: T0 });
        expect(ids(await claimAll())).toEqual(["dlv_3"]);
      });

      it("marks each message's deliveries sent with it, for several watchers in one call", async () => {
        await store().addDeliveries([
          newDelivery("dlv_a1", { watcher: "ses_a", eventSeq: 1 }),
          newDelivery("dlv_a2", { watcher: "ses_a", eventSeq: 2 }),
          newDelivery("dlv_b1", { watcher: "ses_b", eventSeq: 1 }),
          newDelivery("dlv_c1", { watcher: "ses_c", eventSeq: 1 }),
        ]);
        await store().markSent({
          messages: [
            { messageId: "msg_a", ids: ["dlv_a1", "dlv_a2"] },
            { messageId: "msg_b", ids: ["dlv_b1"] },
          ],
          at: T0,
        });
        expect(ids(await claimAll())).toEqual(["dlv_c1"]);
        await store().markSent({ messages: [], at: T0 });
        await store().markSent({ messages: [{ messageId: "msg_c", ids: ["dlv_a1", "dlv_c1"] }], at: T0 });
        expect(await claimAll()).toEqual([]);
      });

      it("postpones pending deliveries to a new due time and reason", async () => {
        await store().addDeliveries([
          newDelivery("dlv_1", { eventSeq: 1, dueAt: T0 }),
          newDelivery("dlv_2", { eventSeq: 2, dueAt: T0 }),
        ]);
        await store().postpone({ ids: ["dlv_1"], dueAt: T0 + 10 * MINUTE, reason: "cap" });
        expect(ids(await claimAll(T0))).toEqual(["dlv_2"]);
        expect(await claimAll(T0 + 10 * MINUTE)).toMatchObject([
          { id: "dlv_1", reason: "cap", dueAt: T0 + 10 * MINUTE, status: "pending" },
          { id: "dlv_2", reason: "window", dueAt: T0 },
        ]);
      });

      it("gives the earliest due time of a pending delivery, or null", async () => {
        expect(await store().nextDeliveryDueAt()).toBeNull();
        await store().addDeliveries([
          newDelivery("dlv_1", { eventSeq: 1, dueAt: T0 + MINUTE }),
          newDelivery("dlv_2", { eventSeq: 2, watcher: "ses_v", dueAt: T0 + 2 * MINUTE }),
          newDelivery("dlv_3", { eventSeq: 3, dueAt: T0 }),
        ]);
        expect(await store().nextDeliveryDueAt()).toBe(T0);
        await store().markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_3"] }], at: T0 });
        expect(await store().nextDeliveryDueAt()).toBe(T0 + MINUTE);
        await store().markDropped({ ids: ["dlv_1", "dlv_2"], at: T0 });
        expect(await store().nextDeliveryDueAt()).toBeNull();
      });
    });

    it("says what the subscriptions' digests, quiet hours and the cap hold (R-LSUB-05)", async () => {
      await store().addDeliveries([
        newDelivery("dlv_d1", {
          eventSeq: 1,
          subscriptionId: "sub_1",
          reason: "digest",
          dueAt: T0 + 10 * MINUTE,
        }),
        newDelivery("dlv_q1", {
          eventSeq: 2,
          subscriptionId: "sub_1",
          reason: "quiet",
          dueAt: T0 + 8 * MINUTE,
        }),
        newDelivery("dlv_c1", {
          eventSeq: 3,
          subscriptionId: "sub_1",
          reason: "cap",
          dueAt: T0 + 9 * MINUTE,
        }),
        newDelivery("dlv_w1", { eventSeq: 4, subscriptionId: "sub_1", reason: "window", dueAt: T0 }),
        newDelivery("dlv_u1", { eventSeq: 5, subscriptionId: "sub_1", reason: "urgent", dueAt: T0 }),
        newDelivery("dlv_sent", { eventSeq: 6, subscriptionId: "sub_1", reason: "digest", dueAt: T0 }),
        newDelivery("dlv_d2", { eventSeq: 1, watcher: "ses_v", subscriptionId: "sub_2", reason: "digest" }),
        newDelivery("dlv_d3", { eventSeq: 1, watcher: "ses_x", subscriptionId: "sub_3", reason: "quiet" }),
        newDelivery("dlv_none", { eventSeq: 7, subscriptionId: null, reason: "cap" }),
      ]);
      await store().markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_sent"] }], at: T0 });
      const held = await store().heldBySubscriptions(["sub_2", "sub_1", "sub_idle"]);
      expect([...held].sort((a, b) => a.subscriptionId.localeCompare(b.subscriptionId))).toEqual([
        { subscriptionId: "sub_1", heldCount: 3, nextDeliveryAt: T0 + 8 * MINUTE },
        { subscriptionId: "sub_2", heldCount: 1, nextDeliveryAt: T0 + 30 * SECOND },
      ]);
      expect(await store().heldBySubscriptions([])).toEqual([]);
    });

    it("moves a watcher's pending deliveries to another (§31); an event the other has goes out once", async () => {
      await store().addDeliveries([
        newDelivery("dlv_from_1", { watcher: "ses_from", eventSeq: 1, dueAt: T0 + SECOND }),
        newDelivery("dlv_from_2", { watcher: "ses_from", eventSeq: 2, reason: "digest", dueAt: T0 + MINUTE }),
        newDelivery("dlv_from_3", { watcher: "ses_from", eventSeq: 3, dueAt: T0 }),
        newDelivery("dlv_from_sent", { watcher: "ses_from", eventSeq: 4, dueAt: T0 }),
        newDelivery("dlv_to_3", { watcher: "ses_to", eventSeq: 3, dueAt: T0 + SECOND }),
      ]);
      await store().markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_from_sent"] }], at: T0 });
      await store().moveWatcher({ from: "ses_from", to: "ses_to" });
      await store().moveWatcher({ from: "ses_to", to: "ses_to" });

      const claimed = await claimAll(T0 + MINUTE);
      expect(claimed.map((d) => [d.id, d.watcher])).toEqual([
        ["dlv_from_1", "ses_to"],
        ["dlv_from_2", "ses_to"],
        ["dlv_to_3", "ses_to"],
      ]);
      expect(await windowEnd("ses_to")).toBe(T0 + SECOND);
      expect(await windowEnd("ses_from")).toBeNull();
      expect(await store().heldBySubscriptions(["sub_1"])).toEqual([
        { subscriptionId: "sub_1", heldCount: 1, nextDeliveryAt: T0 + MINUTE },
      ]);
      // The sent one stays the old watcher's: the event is not stored for it again.
      await store().addDeliveries([newDelivery("dlv_from_4_again", { watcher: "ses_from", eventSeq: 4 })]);
      expect(ids(await claimAll())).not.toContain("dlv_from_4_again");
    });

    it("§28: moves only the pending deliveries of the subscriptions named, when named", async () => {
      await store().addDeliveries([
        newDelivery("dlv_mirror", { watcher: "ses_from", subscriptionId: "sub_mirror", eventSeq: 1 }),
        newDelivery("dlv_local", { watcher: "ses_from", subscriptionId: "sub_local", eventSeq: 2 }),
        newDelivery("dlv_none", { watcher: "ses_from", subscriptionId: null, eventSeq: 3 }),
      ]);
      await store().moveWatcher({ from: "ses_from", to: "ses_to", subscriptionIds: [] });
      await store().moveWatcher({ from: "ses_from", to: "ses_to", subscriptionIds: ["sub_mirror"] });
      const claimed = await claimAll();
      expect(claimed.map((d) => [d.id, d.watcher])).toEqual([
        ["dlv_local", "ses_from"],
        ["dlv_none", "ses_from"],
        ["dlv_mirror", "ses_to"],
      ]);
    });

    describe("wake-ups", () => {
      it("lists the watchers' wake-ups since a time, oldest first, each stored once", async () => {
        await store().recordWakeups([
          { messageId: "msg_3", watcher: "ses_w", at: T0 + 3 * MINUTE, kind: "cap" },
          { messageId: "msg_1", watcher: "ses_w", at: T0 + MINUTE, kind: "batch" },
        ]);
        await store().recordWakeups([
          { messageId: "msg_2", watcher: "ses_w", at: T0 + 2 * MINUTE, kind: "urgent" },
          { messageId: "msg_0", watcher: "ses_w", at: T0, kind: "batch" },
          { messageId: "msg_v", watcher: "ses_v", at: T0 + 90 * SECOND, kind: "batch" },
          { messageId: "msg_u", watcher: "ses_u", at: T0 + MINUTE, kind: "batch" },
        ]);
        // Stored again, in a call of its own or beside a new one: kept once, as first stored.
        await store().recordWakeups([
          { messageId: "msg_1", watcher: "ses_w", at: T0 + 5 * MINUTE, kind: "cap" },
        ]);
        await store().recordWakeups([]);

        expect(await store().listWakeups({ watchers: ["ses_w"], since: T0 + MINUTE })).toEqual([
          { messageId: "msg_1", watcher: "ses_w", at: T0 + MINUTE, kind: "batch" },
          { messageId: "msg_2", watcher: "ses_w", at: T0 + 2 * MINUTE, kind: "urgent" },
          { messageId: "msg_3", watcher: "ses_w", at: T0 + 3 * MINUTE, kind: "cap" },
        ]);
        expect(await store().listWakeups({ watchers: ["ses_v", "ses_w"], since: T0 + 90 * SECOND })).toEqual([
          { messageId: "msg_v", watcher: "ses_v", at: T0 + 90 * SECOND, kind: "batch" },
          { messageId: "msg_2", watcher: "ses_w", at: T0 + 2 * MINUTE, kind: "urgent" },
          { messageId: "msg_3", watcher: "ses_w", at: T0 + 3 * MINUTE, kind: "cap" },
        ]);
        expect(await store().listWakeups({ watchers: ["ses_w"], since: T0 + 4 * MINUTE })).toEqual([]);
        expect(await store().listWakeups({ watchers: ["ses_nobody"], since: 0 })).toEqual([]);
        expect(await store().listWakeups({ watchers: [], since: 0 })).toEqual([]);
      });
    });

    it("a wake-up's kind changes when its message grew; an unknown message changes nothing", async () => {
      await store().recordWakeups([
        { messageId: "msg_1", watcher: "ses_w", at: T0, kind: "batch" },
        { messageId: "msg_2", watcher: "ses_w", at: T0 + 1, kind: "batch" },
      ]);
      await store().setWakeupKinds([
        { messageId: "msg_1", kind: "urgent" },
        { messageId: "msg_none", kind: "cap" },
      ]);
      await store().setWakeupKinds([]);
      expect(await store().listWakeups({ watchers: ["ses_w"], since: 0 })).toEqual([
        { messageId: "msg_1", watcher: "ses_w", at: T0, kind: "urgent" },
        { messageId: "msg_2", watcher: "ses_w", at: T0 + 1, kind: "batch" },
      ]);
      expect(await store().listWakeups({ watchers: ["ses_none"], since: 0 })).toEqual([]);
    });

    describe("collected replies (R-ECHO-01)", () => {
      it("tells which of the turns' replies a session collected", async () => {
        await store().recordCollectedReply({ turnId: "trn_1", sessionId: "ses_w", at: T0 });
        await store().recordCollectedReply({ turnId: "trn_3", sessionId: "ses_w", at: T0 + 1 });
        await store().recordCollectedReply({ turnId: "trn_3", sessionId: "ses_w", at: T0 + 2 });
        await store().recordCollectedReply({ turnId: "trn_2", sessionId: "ses_v", at: T0 });

        expect(
          [
            ...(await store().collectedReplies({ sessionId: "ses_w", turnIds: ["trn_3", "trn_2", "trn_1"] })),
          ].sort(),
        ).toEqual(["trn_1", "trn_3"]);
        expect(await store().collectedReplies({ sessionId: "ses_v", turnIds: ["trn_1", "trn_2"] })).toEqual([
          "trn_2",
        ]);
        expect(await store().collectedReplies({ sessionId: "ses_w", turnIds: [] })).toEqual([]);
      });
    });

    it("undoes the changes of a transaction that failed", async () => {
      const transaction = fixture().transaction;
      if (transaction === undefined) {
        return;
      }
      await store().setCursor(5);
      await store().addDeliveries([newDelivery("dlv_1", { dueAt: T0 })]);
      await expect(
        transaction(async (tx) => {
          expect(await tx.claimCursor()).toBe(5);
          await tx.setCursor(9);
          await tx.addDeliveries([newDelivery("dlv_lost", { eventSeq: 2, dueAt: T0 })]);
          await tx.markSent({ messages: [{ messageId: "msg_lost", ids: ["dlv_1"] }], at: T0 });
          await tx.recordWakeups([{ messageId: "msg_lost", watcher: "ses_w", at: T0, kind: "batch" }]);
          await tx.recordCollectedReply({ turnId: "trn_lost", sessionId: "ses_w", at: T0 });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().claimCursor()).toBe(5);
      expect(ids(await claimAll())).toEqual(["dlv_1"]);
      expect(await store().listWakeups({ watchers: ["ses_w"], since: 0 })).toEqual([]);
      expect(await store().collectedReplies({ sessionId: "ses_w", turnIds: ["trn_lost"] })).toEqual([]);
    });
  });
}
