import { createSequentialIdGenerator } from "@oar/core/testing";
import { newSubscription } from "@oar/scheduler/testing";
import type { OutboxEvent } from "@oar/schema";
import { describe, expect, it } from "vitest";
import type { OutboxRecord } from "../../src/ports/event-store";
import { createMemoryEngineStores } from "../../src/testing";
import { routeEvents } from "../../src/watching/routing";

const T0 = Date.UTC(2026, 9, 20, 10);
const WINDOW_MS = 30_000;

let seq = 0;
function record(kind: "turn_end" | "error", session: string): OutboxRecord {
  seq += 1;
  const base = { id: `evt_${seq}`, at: new Date(T0).toISOString(), session, title: "Build" };
  const event: OutboxEvent =
    kind === "turn_end" ? { ...base, kind, status: "done", text: "ok" } : { ...base, kind, message: "boom" };
  return { seq, id: event.id, kind, sessionId: session, subscriptionId: null, event, at: T0 };
}

/** A batch of outbox rows routed in one pass must come out as routing them one by one would. */
describe("routing a batch (R-DLV-04, R-SUB-09)", () => {
  it("an urgent event flushes the window the batch opened; a later row opens a new one", async () => {
    const stores = createMemoryEngineStores();
    await stores.subscriptions.createSubscription(
      newSubscription("sub_w", { watcher: "ses_w", sessions: ["ses_a"], events: ["turn_end", "error"] }),
    );
    const ctx = { stores, ids: createSequentialIdGenerator(), now: T0 };
    const [first, urgent, later] = [
      record("turn_end", "ses_a"),
      record("error", "ses_a"),
      record("turn_end", "ses_a"),
    ];
    await routeEvents(ctx, [first, urgent, later]);
    const due = await stores.deliveries.claimDueDeliveries({ now: T0 + WINDOW_MS, watchers: 10 });
    expect(due.map((d) => [d.eventId, d.reason, d.dueAt])).toEqual([
      [first.id, "window", T0],
      [urgent.id, "urgent", T0],
      [later.id, "window", T0 + WINDOW_MS],
    ]);
  });

  it("rows joining a window stored before the batch keep its end; a once subscription takes only the first row", async () => {
    const stores = createMemoryEngineStores();
    await stores.subscriptions.createSubscription(
      newSubscription("sub_once", {
        watcher: "ses_o",
        sessions: ["ses_a"],
        events: ["turn_end"],
        once: true,
      }),
    );
    await stores.subscriptions.createSubscription(
      newSubscription("sub_w", { watcher: "ses_w", sessions: ["ses_a", "ses_b"], events: ["turn_end"] }),
    );
    const ids = createSequentialIdGenerator();
    const opening = record("turn_end", "ses_b");
    await routeEvents({ stores, ids, now: T0 }, [opening]);
    const [a1, a2] = [record("turn_end", "ses_a"), record("turn_end", "ses_a")];
    await routeEvents({ stores, ids, now: T0 + 10_000 }, [a1, a2]);
    const due = await stores.deliveries.claimDueDeliveries({ now: T0 + 10 * WINDOW_MS, watchers: 10 });
    expect(due.map((d) => [d.watcher, d.eventId, d.dueAt])).toEqual([
      ["ses_o", a1.id, T0 + 10_000 + WINDOW_MS],
      ["ses_w", opening.id, T0 + WINDOW_MS],
      ["ses_w", a1.id, T0 + WINDOW_MS],
      ["ses_w", a2.id, T0 + WINDOW_MS],
    ]);
    expect(await stores.subscriptions.getSubscription("sub_once")).toMatchObject({ endReason: "once" });
  });
});
