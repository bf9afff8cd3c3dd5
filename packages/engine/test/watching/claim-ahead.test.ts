import { describe, expect, it } from "vitest";
import type { EngineStores } from "../../src";
import { createWatchingHarness } from "./watching-harness";

const WINDOW_MS = 30_000;

/** The stores, logging the calls that matter here in the order a transaction issues them. */
function loggingCalls(log: string[]) {
  const wrap = (inner: EngineStores): EngineStores => ({
    ...inner,
    deliveries: {
      ...inner.deliveries,
      claimAmong: (input) => {
        log.push(`claim ${[...input.among].join(",")}`);
        return inner.deliveries.claimAmong(input);
      },
    },
    subscriptions: {
      ...inner.subscriptions,
      listSubscriptionsWatching: (sessionIds) => {
        log.push("subscriptions");
        return inner.subscriptions.listSubscriptionsWatching(sessionIds);
      },
    },
    transaction: (work) =>
      inner.transaction((tx) => {
        log.push("transaction");
        return work(wrap(tx));
      }),
  });
  return wrap;
}

/** The calls of the transaction that made `call`, in their order. */
function transactionOf(log: readonly string[], call: string): string[] {
  const at = log.indexOf(call);
  const start = log.lastIndexOf("transaction", at);
  const end = log.indexOf("transaction", at);
  return log.slice(start + 1, end === -1 ? undefined : end);
}

/** A harness logging the calls, and the session whose events are watched. */
async function workerWithLog() {
  const log: string[] = [];
  const h = await createWatchingHarness({ engineStores: loggingCalls(log) });
  const worker = await h.ownerSession({ title: "Worker" });
  return { log, h, worker };
}

describe("an urgent event's watchers claimed ahead (R-DLV-06, DESIGN §9)", () => {
  it("claims whom the session's last event reached in routing's first flight; the window goes out with the error", async () => {
    const { log, h, worker } = await workerWithLog();
    const a = await h.ownerSession({ title: "A" });
    const b = await h.ownerSession({ title: "B" });
    for (const watcher of [a, b]) {
      await h.subscribe({ sessions: [worker.id], events: ["turn_end", "error"] }, watcher.id);
    }
    await h.prompt(worker, "first");
    expect(await h.eventMessages(a.id)).toEqual([]);

    log.length = 0;
    await h.prompt(worker, "fail: broke");
    // The claim went just before the error's batch read its subscriptions: it did not wait for them.
    const claims = log.filter((line) => line.startsWith("claim"));
    const ahead = `claim ${[a.id, b.id].sort().join(",")}`;
    expect(claims).toEqual([ahead]);
    expect(transactionOf(log, ahead)).toEqual([ahead, "subscriptions"]);
    for (const watcher of [a, b]) {
      const messages = await h.eventMessages(watcher.id);
      expect(messages).toHaveLength(1);
      expect(messages[0]?.text).toContain('turn_end (done) "echo: first"');
      expect(messages[0]?.text).toContain('error "broke"');
    }
    // Nothing left behind: the window the error closed does not end again.
    await h.pass(WINDOW_MS + 1_000);
    expect(await h.eventMessages(a.id)).toHaveLength(1);
  });

  it("a watcher the guess missed is claimed once routing knows it", async () => {
    const { log, h, worker } = await workerWithLog();
    const a = await h.ownerSession({ title: "A" });
    const late = await h.ownerSession({ title: "Late" });
    await h.subscribe({ sessions: [worker.id], events: ["turn_end", "error"] }, a.id);
    await h.prompt(worker, "first");
    await h.subscribe({ sessions: [worker.id], events: ["error"] }, late.id);

    log.length = 0;
    await h.prompt(worker, "fail: broke");
    const claims = log.filter((line) => line.startsWith("claim"));
    expect(claims).toEqual([`claim ${a.id}`, `claim ${late.id}`]);
    expect(transactionOf(log, `claim ${a.id}`)).toEqual([
      `claim ${a.id}`,
      "subscriptions",
      `claim ${late.id}`,
    ]);
    expect((await h.eventMessages(late.id)).map((m) => m.text)).toEqual([
      expect.stringContaining('error "broke"'),
    ]);
    expect(await h.eventMessages(a.id)).toHaveLength(1);
  });

  it("a turn's start teaches the guess: its first error's watchers are claimed ahead too", async () => {
    const { log, h, worker } = await workerWithLog();
    const a = await h.ownerSession({ title: "A" });
    await h.subscribe({ sessions: [worker.id], events: ["error"] }, a.id);
    // The turn is held open, so its start is routed before its end.
    h.provider.hold();
    const posted = h.engine.owner.postMessage(worker.id, "hold");
    const turn = await h.provider.nextTurn();
    await h.flow();
    log.length = 0;
    turn.fail("broke");
    await posted;
    await h.flow();
    expect(log.filter((line) => line.startsWith("claim"))[0]).toBe(`claim ${a.id}`);
    expect(transactionOf(log, `claim ${a.id}`)).toEqual([`claim ${a.id}`, "subscriptions"]);
    expect((await h.eventMessages(a.id)).map((m) => m.text)).toEqual([
      expect.stringContaining('error "broke"'),
    ]);
  });

  it("R-ECHO-03 claimed ahead: the watcher's own turn's error arrives, its collected turn_end does not", async () => {
    const { log, h, worker } = await workerWithLog();
    await h.subscribe({ sessions: [worker.id], events: ["turn_end", "error"] });
    await h.prompt(worker, "first");
    await h.pass(WINDOW_MS + 1_000);
    expect(await h.eventMessages()).toHaveLength(1);

    log.length = 0;
    // Its turn_end is stored pending, due at once and in doubt: the claim made ahead had not seen it.
    await h.ok({ action: "send", relay: "this", session: worker.id, text: "fail: bad", wait_seconds: 30 });
    await h.pass(WINDOW_MS + 5_000);
    expect(transactionOf(log, `claim ${h.caller.id}`)).toEqual([`claim ${h.caller.id}`, "subscriptions"]);
    const messages = (await h.eventMessages()).map((m) => m.text);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toContain('error "bad"');
    expect(messages[1]).not.toContain("turn_end");
  });
});
