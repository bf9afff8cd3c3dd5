import { newSubscription } from "@oar/scheduler/testing";
import { describe, expect, it } from "vitest";
import { peerSubscriptionEvents } from "../../src/peers/subscription-events";
import type { EngineDeps } from "../../src/ports/engine-deps";
import type { EngineStores } from "../../src/ports/engine-stores";
import { openTestStores } from "../../src/testing";
import { testClock } from "../actions/harness";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function turnEnd(stores: EngineStores, id: string, at: number) {
  return stores.events.appendEvent({
    id,
    sessionId: "ses_a",
    subscriptionId: null,
    event: {
      kind: "turn_end",
      id,
      at: new Date(at).toISOString(),
      session: "ses_a",
      title: "A",
      status: "done",
      text: id,
    },
    at,
  });
}

describe("the replay route's reading of the outbox (R-PAIR-04, DESIGN §4)", () => {
  it("a first fetch starts near the subscription's creation, not at the outbox's first row", async () => {
    const clock = testClock(Date.UTC(2026, 9, 20, 10));
    const stores = await openTestStores();
    // A long-lived relay: many events an hour before the subscription.
    for (let i = 0; i < 1_200; i++) {
      await turnEnd(stores, `old_${i}`, clock.now() - HOUR);
    }
    await stores.subscriptions.createSubscription(
      newSubscription("sub_far", {
        watcher: "ses_desk",
        watcherRelay: "desk",
        sessions: ["ses_a"],
        createdAt: clock.now(),
      }),
    );
    await turnEnd(stores, "new_1", clock.now());
    let reads = 0;
    const listEvents = stores.events.listEvents;
    stores.events.listEvents = (options) => {
      reads += 1;
      return listEvents(options);
    };
    const deps = { stores, clock, relay: { name: "build-box" } } as unknown as EngineDeps;
    const page = await peerSubscriptionEvents(deps, "desk", "sub_far", { limit: 10 });
    expect(page.events.map((event) => event.id)).toEqual(["new_1"]);
    expect(page.cursor).toBe("1201");
    // One page read, from the creation on; without the bound it reads three pages from seq 0.
    expect(reads).toBe(1);
  });

  it("a cursor whose row retention pruned says truncated: what followed it may have gone too", async () => {
    const clock = testClock(Date.UTC(2026, 9, 20, 10));
    const stores = await openTestStores();
    await stores.subscriptions.createSubscription(
      newSubscription("sub_long", {
        watcher: "ses_desk",
        watcherRelay: "desk",
        sessions: ["ses_a"],
        createdAt: clock.now(),
      }),
    );
    await turnEnd(stores, "evt_1", clock.now() + HOUR);
    await turnEnd(stores, "evt_2", clock.now() + 2 * HOUR);
    const deps = { stores, clock, relay: { name: "build-box" } } as unknown as EngineDeps;
    const first = await peerSubscriptionEvents(deps, "desk", "sub_long", { limit: 1 });
    expect(first).toMatchObject({ events: [{ id: "evt_1" }], truncated: false });

    // Eight days without the peer: evt_2 is past R-PAIR-04's 7 days, then pruned with evt_1.
    await clock.advanceAsync(8 * DAY);
    await turnEnd(stores, "evt_3", clock.now());
    const unpruned = await peerSubscriptionEvents(deps, "desk", "sub_long", {
      after: first.cursor ?? "",
      limit: 10,
    });
    expect(unpruned).toMatchObject({ events: [{ id: "evt_3" }], truncated: true });
    await stores.deliveries.setCursor(await stores.events.lastEventSeq());
    expect(await stores.retention.pruneEvents({ keptSince: clock.now() - 7 * DAY, limit: 10 })).toBe(2);

    const pruned = await peerSubscriptionEvents(deps, "desk", "sub_long", {
      after: first.cursor ?? "",
      limit: 10,
    });
    expect(pruned).toMatchObject({ events: [{ id: "evt_3" }], truncated: true });
    // A cursor whose row is kept says nothing was lost after it.
    const next = await peerSubscriptionEvents(deps, "desk", "sub_long", {
      after: pruned.cursor ?? "",
      limit: 10,
    });
    expect(next).toEqual({ events: [], cursor: pruned.cursor, truncated: false });
  });
});
