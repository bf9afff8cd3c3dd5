import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import type { NewDelivery } from "@oar/scheduler";
import { describe, expect, it } from "vitest";
import type { EngineStores } from "../ports/engine-stores";
import type { NewSchedule } from "../ports/schedule-store";
import type { ToolCallRecord } from "../ports/tool-call-store";
import { newOutboxEvent } from "./event-store-contract";
import { newSession, newTask } from "./fixtures";

/** The stores of one database: the retention store prunes what the others wrote. */
export type RetentionStoreFixture = ContractFixture<EngineStores>;

const HOUR = 3_600_000;
const BIG = 1_000;

function delivery(id: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id,
    watcher: "ses_w",
    subscriptionId: "sub_1",
    eventId: `evt_${id}`,
    eventSeq: 1,
    reason: "window",
    dueAt: T0,
    echoTurnId: null,
    createdAt: T0,
    status: "sent",
    messageId: `msg_${id}`,
    ...overrides,
  };
}

function schedule(id: string): NewSchedule {
  return {
    id,
    title: `Schedule ${id}`,
    text: "Check the nightly build",
    sessionId: "ses_1",
    createdBy: "ses_1",
    at: null,
    everyMinutes: 60,
    once: false,
    anchor: T0,
    nextFireAt: T0,
    provenance: null,
    createdAt: T0 - HOUR,
  };
}

function toolCall(id: string, createdAt: number, sessionId = "ses_1"): ToolCallRecord {
  return {
    id,
    sessionId,
    action: "read_session",
    relay: "desk",
    targetSession: null,
    ok: true,
    code: null,
    summary: `call ${id}`,
    createdAt,
  };
}

/**
 * The behaviour every RetentionStore must have (DESIGN §9: old rows pruned once nothing needs
 * them). Each rule is pinned at its edge: a row of exactly `keptSince` stays, one a millisecond older goes.
 */
export function runRetentionStoreContract(setup: ContractSetup<RetentionStoreFixture>): void {
  describe("RetentionStore contract", () => {
    const fixture = useContractFixture(setup);
    const stores = () => fixture().store;
    const retention = () => stores().retention;

    /** Appends events at these instants, in order; gives their seqs. */
    async function events(...ats: number[]): Promise<number[]> {
      const seqs: number[] = [];
      for (const [n, at] of ats.entries()) {
        const stored = await stores().events.appendEvent(newOutboxEvent(`evt_${n + 1}`, { at }));
        seqs.push(stored?.seq ?? -1);
      }
      return seqs;
    }
    const eventIds = async () =>
      (await stores().events.listEvents({ after: 0, limit: BIG })).map((e) => e.id);

    describe("events (the outbox)", () => {
      it("prunes routed rows older than `keptSince`; one of exactly `keptSince` stays", async () => {
        const [, , third = 0] = await events(T0 - 2, T0 - 1, T0, T0 + 1);
        await stores().deliveries.setCursor(third);
        expect(await retention().pruneEvents({ keptSince: T0, limit: BIG })).toBe(2);
        expect(await eventIds()).toEqual(["evt_3", "evt_4"]);
      });

      it("keeps a row routing has not passed, however old", async () => {
        const [first = 0] = await events(T0 - 3 * HOUR, T0 - 2 * HOUR, T0 - HOUR, T0);
        await stores().deliveries.setCursor(first);
        expect(await retention().pruneEvents({ keptSince: T0, limit: BIG })).toBe(1);
        expect(await eventIds()).toEqual(["evt_2", "evt_3", "evt_4"]);
      });

      it("prunes nothing while routing has not begun (cursor 0)", async () => {
        await events(T0 - HOUR, T0);
        expect(await retention().pruneEvents({ keptSince: T0, limit: BIG })).toBe(0);
        expect(await eventIds()).toEqual(["evt_1", "evt_2"]);
      });

      it("keeps a row a pending delivery still sends, and lets it go once sent", async () => {
        const seqs = await events(T0 - 2, T0 - 1, T0);
        await stores().deliveries.setCursor(seqs[2] ?? 0);
        await stores().deliveries.addDeliveries([
          delivery("dlv_held", {
            eventId: "evt_1",
            eventSeq: seqs[0] ?? 0,
            status: "pending",
            messageId: null,
          }),
        ]);
        expect(await retention().pruneEvents({ keptSince: T0, limit: BIG })).toBe(1);
        expect(await eventIds()).toEqual(["evt_1", "evt_3"]);
        await stores().deliveries.markSent({ messages: [{ messageId: "msg_1", ids: ["dlv_held"] }], at: T0 });
        expect(await retention().pruneEvents({ keptSince: T0, limit: BIG })).toBe(1);
        expect(await eventIds()).toEqual(["evt_3"]);
      });

      it("keeps the newest row, so the outbox goes on from its seq and a Last-Event-ID still checks", async () => {
        const seqs = await events(T0 - 2, T0 - 1);
        const newest = seqs[1] ?? 0;
        await stores().deliveries.setCursor(newest);
        expect(await retention().pruneEvents({ keptSince: T0, limit: BIG })).toBe(1);
        expect(await stores().events.lastEventSeq()).toBe(newest);
        const next = await stores().events.appendEvent(newOutboxEvent("evt_next", { at: T0 }));
        expect(next?.seq).toBe(newest + 1);
      });

      it("deletes at most `limit` rows a call, and says how many", async () => {
        const seqs = await events(T0 - 5, T0 - 4, T0 - 3, T0 - 2, T0 - 1, T0);
        await stores().deliveries.setCursor(seqs.at(-1) ?? 0);
        expect(await retention().pruneEvents({ keptSince: T0, limit: 2 })).toBe(2);
        expect(await retention().pruneEvents({ keptSince: T0, limit: 2 })).toBe(2);
        expect(await retention().pruneEvents({ keptSince: T0, limit: 2 })).toBe(1);
        expect(await retention().pruneEvents({ keptSince: T0, limit: 2 })).toBe(0);
        expect(await eventIds()).toEqual(["evt_6"]);
      });
    });

    describe("deliveries", () => {
      it("prunes sent and dropped deliveries created before `keptSince`; pending ones stay", async () => {
        await stores().deliveries.addDeliveries([
          delivery("dlv_sent", { createdAt: T0 - 1 }),
          delivery("dlv_dropped", { createdAt: T0 - HOUR, status: "dropped", messageId: null }),
          delivery("dlv_young", { createdAt: T0 }),
          delivery("dlv_pending", { createdAt: T0 - HOUR, status: "pending", messageId: null }),
        ]);
        expect(await retention().pruneDeliveries({ keptSince: T0, limit: BIG })).toBe(2);
        const left = await stores().deliveries.storedPairs({
          watchers: ["ses_w"],
          eventIds: ["evt_dlv_sent", "evt_dlv_dropped", "evt_dlv_young", "evt_dlv_pending"],
        });
        expect(left.map((pair) => pair.eventId).sort()).toEqual(["evt_dlv_pending", "evt_dlv_young"]);
        expect((await retention().countRows()).deliveries).toBe(2);
      });
    });

    describe("wake-ups", () => {
      it("prunes wake-ups older than `keptSince`; one of exactly `keptSince` stays", async () => {
        await stores().deliveries.recordWakeups([
          { messageId: "msg_old", watcher: "ses_w", at: T0 - HOUR, kind: "batch" },
          { messageId: "msg_a_ms_older", watcher: "ses_w", at: T0 - 1, kind: "cap" },
          { messageId: "msg_edge", watcher: "ses_w", at: T0, kind: "urgent" },
        ]);
        expect(await retention().pruneWakeups({ keptSince: T0, limit: BIG })).toBe(2);
        const left = await stores().deliveries.listWakeups({ watchers: ["ses_w"], since: 0 });
        expect(left.map((wakeup) => wakeup.messageId)).toEqual(["msg_edge"]);
      });
    });

    describe("schedule firings", () => {
      it("prunes the slots of schedules that ended before `keptSince`; a live schedule's stay", async () => {
        await stores().sessions.createSession(newSession("ses_1"));
        for (const id of ["sch_ended", "sch_young", "sch_live"]) {
          await stores().schedules.insertSchedule(schedule(id));
          for (const slot of [T0 - 2 * HOUR, T0 - HOUR]) {
            await stores().schedules.recordFiring({
              id: `fir_${id}_${slot}`,
              scheduleId: id,
              slot,
              outcome: "fired",
              turnId: null,
              at: slot,
            });
          }
        }
        await stores().schedules.endSchedule({ id: "sch_ended", reason: "unscheduled", at: T0 - 1 });
        await stores().schedules.endSchedule({ id: "sch_young", reason: "unscheduled", at: T0 });
        expect(await retention().pruneFirings({ keptSince: T0, limit: BIG })).toBe(2);
        expect(await stores().schedules.listFirings("sch_ended")).toEqual([]);
        expect(await stores().schedules.listFirings("sch_young")).toHaveLength(2);
        expect(await stores().schedules.listFirings("sch_live")).toHaveLength(2);
      });
    });

    describe("tool calls", () => {
      it("keeps each session's newest `keep` calls: with 200, the 201st from the newest goes", async () => {
        await stores().sessions.createSession(newSession("ses_1"));
        await stores().sessions.createSession(newSession("ses_2"));
        const calls = Array.from({ length: 201 }, (_, n) => toolCall(`call_${n}`, T0 + n));
        await stores().toolCalls.recordToolCalls(calls);
        await stores().toolCalls.recordToolCalls([toolCall("call_other", T0 - HOUR, "ses_2")]);
        expect(await retention().pruneToolCalls({ keep: 200, limit: BIG })).toBe(1);
        const left = await stores().toolCalls.listToolCalls("ses_1", { limit: BIG });
        expect(left).toHaveLength(200);
        expect(left[0]?.id).toBe("call_1");
        expect(await stores().toolCalls.listToolCalls("ses_2", { limit: BIG })).toHaveLength(1);
        expect(await retention().pruneToolCalls({ keep: 200, limit: BIG })).toBe(0);
      });

      it("breaks a tie of time by the order recorded, and deletes at most `limit` a call", async () => {
        await stores().sessions.createSession(newSession("ses_1"));
        await stores().toolCalls.recordToolCalls(
          ["call_a", "call_b", "call_c", "call_d"].map((id) => toolCall(id, T0)),
        );
        expect(await retention().pruneToolCalls({ keep: 1, limit: 2 })).toBe(2);
        expect(await retention().pruneToolCalls({ keep: 1, limit: 2 })).toBe(1);
        const left = await stores().toolCalls.listToolCalls("ses_1", { limit: BIG });
        expect(left.map((call) => call.id)).toEqual(["call_d"]);
      });
    });

    describe("tasks", () => {
      it("prunes tasks that ended before `keptSince` once their output is gone", async () => {
        await stores().sessions.createSession(newSession("ses_1"));
        const ended = [
          ["tsk_gone", T0 - 1],
          ["tsk_young", T0],
          ["tsk_output", T0 - HOUR],
        ] as const;
        for (const [id, endedAt] of ended) {
          await stores().tasks.insertTask(newTask(id, "ses_1"));
          await stores().tasks.endTask({ id, status: "finished", exitCode: 0, endedAt });
        }
        await stores().tasks.insertTask(newTask("tsk_running", "ses_1"));
        await stores().tasks.forgetOutput("tsk_gone");
        await stores().tasks.forgetOutput("tsk_young");
        expect(await retention().pruneTasks({ keptSince: T0, limit: BIG })).toBe(1);
        expect(await stores().tasks.getTask("tsk_gone")).toBeNull();
        for (const id of ["tsk_young", "tsk_output", "tsk_running"]) {
          expect(await stores().tasks.getTask(id)).not.toBeNull();
        }
      });
    });

    it("counts each kind's rows, and compacts what it pruned outside a transaction", async () => {
      const seqs = await events(T0 - 1, T0);
      await stores().deliveries.setCursor(seqs[1] ?? 0);
      await stores().deliveries.recordWakeups([
        { messageId: "msg_1", watcher: "ses_w", at: T0, kind: "batch" },
      ]);
      expect(await retention().countRows()).toEqual({
        events: 2,
        deliveries: 0,
        wakeups: 1,
        firings: 0,
        toolCalls: 0,
        tasks: 0,
      });
      await retention().pruneEvents({ keptSince: T0, limit: BIG });
      await retention().compact(["events", "deliveries", "wakeups", "firings", "toolCalls", "tasks"]);
      await retention().compact([]);
      expect((await retention().countRows()).events).toBe(1);
    });
  });
}
