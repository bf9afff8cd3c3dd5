import type { NewDelivery } from "@oar/scheduler";
import type { EngineStores } from "../../src/ports/engine-stores";
import { newOutboxEvent, newSession, newTask } from "../../src/testing";

/** Rows of each pruned table as the engine writes them, at the instants a test picks. */
export function seedRows(stores: EngineStores) {
  let sessions = 0;
  return {
    async session(): Promise<string> {
      sessions++;
      const id = `ses_${String(sessions).padStart(4, "0")}`;
      await stores.sessions.createSession(newSession(id));
      return id;
    },

    /** An outbox event at `at`; its seq. */
    async event(id: string, at: number): Promise<number> {
      const stored = await stores.events.appendEvent(newOutboxEvent(id, { at }));
      if (stored === null) {
        throw new Error(`Event ${id} was stored already.`);
      }
      return stored.seq;
    },

    /** Routing has passed every event up to `seq` (default: all of them). */
    async routedUpTo(seq?: number): Promise<void> {
      await stores.deliveries.setCursor(seq ?? (await stores.events.lastEventSeq()));
    },

    /** A delivery sent when it was routed, at `createdAt`. */
    async sentDelivery(id: string, createdAt: number, overrides: Partial<NewDelivery> = {}): Promise<void> {
      await stores.deliveries.addDeliveries([
        {
          id,
          watcher: "ses_watcher",
          subscriptionId: "sub_1",
          eventId: `evt_of_${id}`,
          eventSeq: 1,
          reason: "urgent",
          dueAt: createdAt,
          echoTurnId: null,
          createdAt,
          status: "sent",
          messageId: `msg_of_${id}`,
          ...overrides,
        },
      ]);
    },

    async wakeup(messageId: string, at: number): Promise<void> {
      await stores.deliveries.recordWakeups([{ messageId, watcher: "ses_watcher", at, kind: "batch" }]);
    },

    /** A schedule firing every hour in `sessionId`, with one recorded slot per instant of `slots`. */
    async scheduleWithFirings(id: string, sessionId: string, slots: readonly number[]): Promise<void> {
      const first = slots[0] ?? 0;
      await stores.schedules.insertSchedule({
        id,
        title: `Schedule ${id}`,
        text: "Look at the build.",
        sessionId,
        createdBy: sessionId,
        at: null,
        everyMinutes: 60,
        once: false,
        anchor: first,
        nextFireAt: first,
        provenance: null,
        createdAt: first,
      });
      for (const slot of slots) {
        await stores.schedules.recordFiring({
          id: `fir_${id}_${slot}`,
          scheduleId: id,
          slot,
          outcome: "fired",
          turnId: null,
          at: slot,
        });
      }
    },

    async endSchedule(id: string, at: number): Promise<void> {
      await stores.schedules.endSchedule({ id, reason: "unscheduled", at });
    },

    /** `count` tool calls of the session, one a millisecond from `from`, ids `${prefix}_<n>`. */
    async toolCalls(sessionId: string, prefix: string, count: number, from: number): Promise<void> {
      await stores.toolCalls.recordToolCalls(
        Array.from({ length: count }, (_, n) => ({
          id: `${prefix}_${n}`,
          sessionId,
          action: "list_sessions",
          relay: "desk",
          targetSession: null,
          ok: true,
          code: null,
          summary: `call ${n}`,
          createdAt: from + n,
        })),
      );
    },

    /** A task that ended at `endedAt`, its output file removed already when `outputGone`. */
    async endedTask(id: string, sessionId: string, endedAt: number, outputGone = true): Promise<void> {
      await stores.tasks.insertTask(newTask(id, sessionId, { startedAt: endedAt - 1 }));
      await stores.tasks.endTask({ id, status: "finished", exitCode: 0, endedAt });
      if (outputGone) {
        await stores.tasks.forgetOutput(id);
      }
    },
  };
}
