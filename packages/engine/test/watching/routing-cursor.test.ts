import { describe, expect, it } from "vitest";
import type { EngineStores } from "../../src";
import { createWatchingHarness } from "./watching-harness";

/** The stores, with the `after` of each listEvents the engine makes, and each cursor it claims, recorded. */
function recordingListEvents(afters: number[], claims: number[]) {
  const wrap = (inner: EngineStores): EngineStores => ({
    ...inner,
    deliveries: {
      ...inner.deliveries,
      claimCursor: async () => {
        const cursor = await inner.deliveries.claimCursor();
        if (cursor !== null) {
          claims.push(cursor);
        }
        return cursor;
      },
    },
    events: {
      ...inner.events,
      listEvents: (input) => {
        afters.push(input.after);
        return inner.events.listEvents(input);
      },
    },
    transaction: (work) => inner.transaction((tx) => work(wrap(tx))),
  });
  return wrap;
}

describe("the routing cursor's guess (DESIGN §9)", () => {
  it("reads the events after the cursor this process left in the claim's flight, and again only when the cursor moved elsewhere", async () => {
    const afters: number[] = [];
    const claims: number[] = [];
    const h = await createWatchingHarness({ engineStores: recordingListEvents(afters, claims) });
    const watched = await h.ownerSession({ title: "Worker" });
    await h.subscribe({ sessions: [watched.id], events: ["error"] });
    await h.prompt(watched, "fail: one");
    const left = await h.stores.deliveries.claimCursor();
    expect(left).toBeGreaterThan(0);
    expect(await h.eventMessages()).toHaveLength(1);

    afters.length = 0;
    claims.length = 0;
    await h.prompt(watched, "fail: two");
    // Every pass read from where the one before left the cursor: one read each, from the cursor.
    expect(claims.length).toBeGreaterThan(0);
    expect(afters).toEqual(claims);
    expect(claims[0]).toBe(left);
    expect(await h.eventMessages()).toHaveLength(2);

    // Another process moves the cursor (here, by hand, back to the start): the guess is wrong, so
    // the pass reads again from where the cursor is, and what was routed is not sent again.
    await h.stores.deliveries.setCursor(0);
    afters.length = 0;
    claims.length = 0;
    await h.prompt(watched, "fail: three");
    // The first pass read from its guess, then from the cursor; the others once each.
    expect(claims[0]).toBe(0);
    expect(afters).toEqual([afters[0], ...claims]);
    expect(afters[0]).toBeGreaterThan(0);
    const texts = (await h.eventMessages()).map((message) => message.text);
    expect(texts).toHaveLength(3);
    expect(texts.filter((text) => text.includes('"one"'))).toHaveLength(1);
    expect(texts[2]).toContain('error "three"');
  });
});
