import { createSequentialIdGenerator } from "@oar/core/testing";
import { newSubscription } from "@oar/scheduler/testing";
import type { OutboxEvent } from "@oar/schema";
import { describe, expect, it } from "vitest";
import type { OutboxRecord } from "../../src/ports/event-store";
import { openTestStores } from "../../src/testing";
import { routeEvents } from "../../src/watching/routing";
import { WindowedWatchers } from "../../src/watching/windowed-watchers";

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
    const stores = await openTestStores();
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
    const stores = await openTestStores();
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

  it("reads the windows of the watchers a session reached before with its subscriptions, and reads whom that guess missed after", async () => {
    const stores = await openTestStores();
    const reads: string[][] = [];
    const spied = {
      ...stores,
      deliveries: {
        ...stores.deliveries,
        openWindowEnds: (watchers: readonly string[]) => {
          reads.push([...watchers]);
          return stores.deliveries.openWindowEnds(watchers);
        },
      },
    };
    await stores.subscriptions.createSubscription(
      newSubscription("sub_w", { watcher: "ses_w", sessions: ["ses_a"], events: ["turn_end"] }),
    );
    const ids = createSequentialIdGenerator();
    const windowed = new WindowedWatchers();
    const first = record("turn_end", "ses_a");
    await routeEvents({ stores: spied, ids, now: T0, windowed }, [first]);
    // Nothing known of ses_a yet: the window is read once routing knows who receives it.
    expect(reads).toEqual([["ses_w"]]);
    await stores.subscriptions.createSubscription(
      newSubscription("sub_x", { watcher: "ses_x", sessions: ["ses_a"], events: ["turn_end"] }),
    );
    reads.length = 0;
    const second = record("turn_end", "ses_a");
    await routeEvents({ stores: spied, ids, now: T0 + 10_000, windowed }, [second]);
    // ses_w from the guess, with the subscriptions; ses_x, new, after.
    expect(reads).toEqual([["ses_w"], ["ses_x"]]);
    reads.length = 0;
    const third = record("turn_end", "ses_a");
    await routeEvents({ stores: spied, ids, now: T0 + 20_000, windowed }, [third]);
    expect(reads).toEqual([["ses_w", "ses_x"]]);
    const due = await stores.deliveries.claimDueDeliveries({ now: T0 + 10 * WINDOW_MS, watchers: 10 });
    expect(due.map((d) => [d.watcher, d.eventId, d.dueAt])).toEqual([
      ["ses_w", first.id, T0 + WINDOW_MS],
      ["ses_w", second.id, T0 + WINDOW_MS],
      ["ses_w", third.id, T0 + WINDOW_MS],
      ["ses_x", second.id, T0 + 10_000 + WINDOW_MS],
      ["ses_x", third.id, T0 + 10_000 + WINDOW_MS],
    ]);
  });
});

describe("WindowedWatchers", () => {
  it("gives the watchers last learnt for each session, once each", () => {
    const windowed = new WindowedWatchers();
    expect(windowed.of(["ses_a"])).toEqual([]);
    windowed.learn("ses_a", ["ses_w", "ses_x"]);
    windowed.learn("ses_b", ["ses_x", "ses_y"]);
    expect(windowed.of(["ses_a", "ses_b", "ses_c"])).toEqual(["ses_w", "ses_x", "ses_y"]);
    windowed.learn("ses_a", ["ses_z"]);
    expect(windowed.of(["ses_a"])).toEqual(["ses_z"]);
  });

  it("forgets everything once it knows 10,000 sessions, and goes on learning", () => {
    const windowed = new WindowedWatchers();
    for (let i = 0; i < 10_000; i++) {
      windowed.learn(`ses_${i}`, [`ses_w${i}`]);
    }
    expect(windowed.of(["ses_0", "ses_9999"])).toEqual(["ses_w0", "ses_w9999"]);
    windowed.learn("ses_9999", ["ses_again"]);
    expect(windowed.of(["ses_0", "ses_9999"])).toEqual(["ses_w0", "ses_again"]);
    windowed.learn("ses_new", ["ses_n"]);
    expect(windowed.of(["ses_0", "ses_new"])).toEqual(["ses_n"]);
  });
});
