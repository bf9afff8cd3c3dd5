import { newSubscription } from "@oar/scheduler/testing";
import { describe, expect, it } from "vitest";
import { peerSubscriptionEvents } from "../../src/peers/subscription-events";
import type { EngineDeps } from "../../src/ports/engine-deps";
import { openTestStores } from "../../src/testing";
import { testClock } from "../actions/harness";

const HOUR = 3_600_000;

describe("the replay route's reading of the outbox (R-PAIR-04, DESIGN §4)", () => {
  it("a first fetch starts near the subscription's creation, not at the outbox's first row", async () => {
    const clock = testClock(Date.UTC(2026, 9, 20, 10));
    const stores = await openTestStores();
    // A long-lived relay: many events an hour before the subscription.
    for (let i = 0; i < 1_200; i++) {
      const id = `old_${i}`;
      await stores.events.appendEvent({
        id,
        sessionId: "ses_a",
        subscriptionId: null,
        event: {
          kind: "turn_end",
          id,
          at: new Date(clock.now() - HOUR).toISOString(),
          session: "ses_a",
          title: "A",
          status: "done",
          text: "old",
        },
        at: clock.now() - HOUR,
      });
    }
    await stores.subscriptions.createSubscription(
      newSubscription("sub_far", {
        watcher: "ses_desk",
        watcherRelay: "desk",
        sessions: ["ses_a"],
        createdAt: clock.now(),
      }),
    );
    await stores.events.appendEvent({
      id: "new_1",
      sessionId: "ses_a",
      subscriptionId: null,
      event: {
        kind: "turn_end",
        id: "new_1",
        at: new Date(clock.now()).toISOString(),
        session: "ses_a",
        title: "A",
        status: "done",
        text: "new",
      },
      at: clock.now(),
    });
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
});
