import { describe, expect, it } from "vitest";
import type { EngineStores } from "../../src";
import type { SessionRecord } from "../../src/ports/session-store";
import { createWatchingHarness, type WatchingHarness } from "./watching-harness";

/** The stores, with the `after` of each listEvents, each cursor claimed and each claimAmong's watchers recorded. */
function recordingListEvents(afters: number[], claims: number[], among: string[][] = []) {
  const wrap = (inner: EngineStores): EngineStores => ({
    ...inner,
    deliveries: {
      ...inner.deliveries,
      claimAmong: (input) => {
        among.push([...input.among]);
        return inner.deliveries.claimAmong(input);
      },
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

/** An error event appended to the outbox behind the dispatcher's back: nothing wakes it. */
/**
 * Errors appended in one transaction past the engine's stores, so this process's own hint does
 * not wake the dispatcher: on memory and PGlite nothing tells it; on Postgres LISTEN/NOTIFY
 * tells it at the commit, all of them at once.
 */
function appendUnheardErrors(h: WatchingHarness, errors: readonly (readonly [string, SessionRecord])[]) {
  return h.stores.transaction(async (tx) => {
    for (const [id, session] of errors) {
      await tx.events.appendEvent({
        id,
        sessionId: session.id,
        event: {
          id,
          kind: "error",
          at: new Date(h.clock.now()).toISOString(),
          session: session.id,
          title: session.title,
          message: `${id} broke`,
        },
        at: h.clock.now(),
      });
    }
  });
}

describe("batches with few rows waiting (R-DLV-06)", () => {
  it("end at the first urgent event: each error's watchers are sent to in a transaction of its own, in order", async () => {
    const among: string[][] = [];
    const h = await createWatchingHarness({ engineStores: recordingListEvents([], [], among) });
    const a = await h.ownerSession({ title: "A" });
    const b = await h.ownerSession({ title: "B" });
    const c = await h.ownerSession({ title: "C" });
    const wa = await h.ownerSession({ title: "Watches A" });
    const wb = await h.ownerSession({ title: "Watches B" });
    await h.subscribe({ sessions: [a.id], events: ["error"] }, wa.id);
    await h.subscribe({ sessions: [b.id], events: ["error"] }, wb.id);
    await h.flow();
    // Two errors wait in the outbox, unheard; a turn of C then wakes the dispatcher: it finds
    // them both, and C's events behind them.
    among.length = 0;
    await appendUnheardErrors(h, [
      ["evt_err_a", a],
      ["evt_err_b", b],
    ]);
    await h.prompt(c, "wake up");
    expect(among).toEqual([[wa.id], [wb.id]]);
    expect((await h.eventMessages(wa.id)).map((m) => m.text)).toEqual([
      expect.stringContaining('"evt_err_a broke"'),
    ]);
    expect((await h.eventMessages(wb.id)).map((m) => m.text)).toEqual([
      expect.stringContaining('"evt_err_b broke"'),
    ]);
  });

  it("a backlog of more than 20 rows is routed in full batches", async () => {
    const among: string[][] = [];
    const h = await createWatchingHarness({ engineStores: recordingListEvents([], [], among) });
    const sessions = await Promise.all([0, 1, 2].map((i) => h.ownerSession({ title: `S${i}` })));
    const watchers = await Promise.all([0, 1, 2].map((i) => h.ownerSession({ title: `W${i}` })));
    for (const [i, watcher] of watchers.entries()) {
      await h.subscribe({ sessions: [sessions[i]?.id], events: ["error"] }, watcher.id);
    }
    await h.flow();
    among.length = 0;
    await appendUnheardErrors(
      h,
      Array.from({ length: 21 }, (_, n) => [`evt_err_${n}`, sessions[n % 3] as SessionRecord] as const),
    );
    await h.prompt(sessions[0] as SessionRecord, "wake up");
    // One batch took the 21 errors (and the turn's own rows): the three watchers in one claim.
    expect(among[0]?.sort()).toEqual(watchers.map((w) => w.id).sort());
  });
});
