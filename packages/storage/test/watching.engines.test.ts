import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type IdGenerator, overriding } from "@oar/core";
import { createSequentialIdGenerator, FakeClock } from "@oar/core/testing";
import { createEngine, type Engine, type EngineStores } from "@oar/engine";
import { createTestProvider, withFailingMethod } from "@oar/engine/testing";
import type { NewDelivery } from "@oar/scheduler";
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage, type StorageConfig } from "../src";
import { type TestDatabase, testDatabases } from "./databases";

const T0 = Date.parse("2026-03-10T12:00:00.000Z");
const RELAY = { name: "desk", version: "0.1.0", platform: "linux-x64" } as const;
const WINDOW_MS = 30_000;

/**
 * Lets the engines finish what they do now: turns run on a real database take real time, so this
 * waits (in real time, bounded) until no turn is queued or running and the dispatchers rest.
 */
async function settle(engines: readonly Engine[], storage?: Storage): Promise<void> {
  const deadline = Date.now() + 10_000;
  const rest = async () => {
    for (let i = 0; i < 4; i++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await Promise.all(engines.map((engine) => engine.settleEvents()));
    }
  };
  let quiet = 0;
  for (;;) {
    await rest();
    const active = storage === undefined ? [] : await storage.stores.sessions.listActiveTurns();
    // Twice in a row: a turn that ended just before the read may not have woken its dispatcher
    // yet (its commit's answer and the read's come on different connections, in either order).
    quiet = active.length === 0 ? quiet + 1 : 0;
    if (quiet === 2 || Date.now() > deadline) {
      return;
    }
    if (quiet === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

interface Opened {
  readonly storage: Storage;
  readonly engine: Engine;
  readonly clock: FakeClock;
}

const opened: Opened[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const { engine, storage } of opened.splice(0)) {
    await engine.close();
    await storage.close();
  }
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

async function open(
  config: StorageConfig,
  options: {
    readonly at: number;
    readonly shared: boolean;
    readonly ids?: string;
    readonly stores?: (stores: EngineStores) => EngineStores;
  },
): Promise<Opened> {
  const storage = await openStorage(config);
  const clock = new FakeClock(options.at);
  const base = createSequentialIdGenerator();
  // Two engines on one database must not make the same ids.
  const ids: IdGenerator = { next: (kind) => `${base.next(kind)}${options.ids ?? ""}` };
  const engine = createEngine({
    stores: options.stores ? options.stores(storage.stores) : storage.stores,
    providers: [createTestProvider()],
    clock,
    ids,
    relay: RELAY,
    approvalCards: false,
    sharedStore: options.shared,
  });
  await engine.start();
  const entry = { storage, engine, clock };
  opened.push(entry);
  return entry;
}

async function close(entry: Opened): Promise<void> {
  opened.splice(opened.indexOf(entry), 1);
  await entry.engine.close();
  await entry.storage.close();
}

/** A database for one test: PGlite in a directory that outlives a restart, or a scratch Postgres. */
async function databaseFor(database: TestDatabase): Promise<StorageConfig> {
  if (database.name === "pglite") {
    const dir = await mkdtemp(join(tmpdir(), "oar-watching-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return { driver: "pglite", dataDir: dir };
  }
  const created = await database.create();
  cleanups.push(() => created.dispose());
  return created.config;
}

/** The stores, with the deliveries each addDeliveries stores and each markSent marks recorded. */
function spyingDeliveries(
  stores: EngineStores,
  seen: { readonly added: NewDelivery[]; readonly marked: string[] },
): EngineStores {
  const wrap = (inner: EngineStores): EngineStores =>
    overriding(inner, {
      deliveries: overriding(inner.deliveries, {
        addDeliveries: (rows) => {
          seen.added.push(...rows);
          return inner.deliveries.addDeliveries(rows);
        },
        markSent: (input) => {
          seen.marked.push(...input.messages.flatMap((message) => message.ids));
          return inner.deliveries.markSent(input);
        },
      }),
      transaction: (work) => inner.transaction((tx) => work(wrap(tx))),
    });
  return wrap(stores);
}

async function relayMessages(storage: Storage, sessionId: string) {
  return (await storage.stores.sessions.listMessages(sessionId)).filter(
    (message) => message.role === "relay",
  );
}

async function sessionPair(engine: Engine) {
  const watcher = await engine.owner.createSession({ provider: "test", title: "Watcher" });
  const watched = await engine.owner.createSession({ provider: "test", title: "Worker" });
  const token = watcher.id;
  return { watcher: token, watched: watched.id };
}

for (const database of testDatabases) {
  describe.skipIf(!database.available)(
    `watching across restarts and failures on ${database.name}`,
    { timeout: 60_000 },
    () => {
      it("R-FEW-23, DESIGN §8: an event held by quiet hours survives a restart, and quiet hours that ended while the relay was down flush on start, once", async () => {
        const config = await databaseFor(database);
        // 12:00 UTC: inside quiet hours 11:00–13:00 UTC.
        const first = await open(config, { at: T0, shared: false });
        const { watcher, watched } = await sessionPair(first.engine);
        const subscribed = await first.engine.execute(watcher, {
          action: "subscribe",
          sessions: [watched],
          events: ["turn_end"],
          quiet_hours: { from: "11:00", to: "13:00", tz: "UTC" },
        });
        expect(subscribed).toMatchObject({ ok: true });
        await first.engine.owner.postMessage(watched, "night work");
        await settle([first.engine], first.storage);
        await first.clock.advanceAsync(WINDOW_MS);
        await settle([first.engine], first.storage);
        expect(await relayMessages(first.storage, watcher)).toEqual([]);
        await close(first);

        // Back two hours later: the window ended while it was down.
        const second = await open(config, { at: T0 + 2 * 3_600_000, shared: false, ids: "r" });
        await settle([second.engine], second.storage);
        const messages = await relayMessages(second.storage, watcher);
        expect(messages).toHaveLength(1);
        expect(messages[0]?.text).toContain("Held during quiet hours (11:00–13:00 UTC): 1 event");
        expect(messages[0]?.text).toContain('"echo: night work"');
        await second.clock.advanceAsync(WINDOW_MS * 4);
        await settle([second.engine], second.storage);
        expect(await relayMessages(second.storage, watcher)).toHaveLength(1);
      });

      it("R-DLV-04: a dozen watchers get their window at its end, then an urgent event with the window it closed, once each", async () => {
        const config = await databaseFor(database);
        const { engine, storage, clock } = await open(config, { at: T0, shared: false });
        const watched = await engine.owner.createSession({ provider: "test", title: "Worker" });
        // The error's routing claims them all and closes their open windows by sending them.
        const watchers = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            engine.owner.createSession({ provider: "test", title: `W${i}` }),
          ),
        );
        for (const watcher of watchers) {
          const result = await engine.execute(watcher.id, {
            action: "subscribe",
            sessions: [watched.id],
            events: ["turn_end", "error"],
          });
          expect(result).toMatchObject({ ok: true });
        }
        await engine.owner.postMessage(watched.id, "first");
        await settle([engine], storage);
        await clock.advanceAsync(WINDOW_MS);
        await settle([engine], storage);
        await engine.owner.postMessage(watched.id, "second");
        await settle([engine], storage);
        await engine.owner.postMessage(watched.id, "fail: third");
        await settle([engine], storage);
        for (const watcher of watchers) {
          const messages = (await relayMessages(storage, watcher.id)).map((m) => m.text);
          // The window of "first" at its end; "second"'s window flushed by the error, in its message.
          expect(messages, watcher.title).toHaveLength(2);
          expect(messages[0]).toContain('"echo: first"');
          expect(messages[1]).toContain('"echo: second"');
          expect(messages[1]).toContain("third");
        }
      });

      it("DESIGN §3: a send that fails before its commit leaves the event pending; it goes out once on the next pass", async () => {
        const config = await databaseFor(database);
        let failures = 1;
        const entry = await open(config, {
          at: T0,
          shared: false,
          stores: (stores) =>
            withFailingMethod(stores, "deliveries.markSent", {
              failing: () => failures-- > 0,
            }),
        });
        const { watcher, watched } = await sessionPair(entry.engine);
        await entry.engine.execute(watcher, { action: "subscribe", sessions: [watched], events: ["error"] });
        await entry.engine.owner.postMessage(watched, "fail: broken");
        await settle([entry.engine], entry.storage);
        // The first send failed at its last write: nothing of it stayed, and it is tried again
        // (at once when something else pokes the dispatcher, else a second later).
        expect(failures).toBeLessThanOrEqual(0);
        await entry.clock.advanceAsync(1_000);
        await settle([entry.engine], entry.storage);
        expect(failures).toBe(-1);
        const messages = await relayMessages(entry.storage, watcher);
        expect(messages).toHaveLength(1);
        expect(messages[0]?.text).toContain('error "broken"');
      });
    },
  );
}

const postgres = testDatabases.find((database) => database.name === "postgres");
// The engine's use of the store on the urgent path; the store's own part runs on both drivers in its
// contract suite, and a PGlite data directory per test would cost seconds each.
describe.skipIf(!postgres?.available)(
  "the urgent path on Postgres (R-DLV-06, DESIGN §3)",
  { timeout: 60_000 },
  () => {
    it("R-DLV-06: an urgent event reaches watchers met for the first time in routing's own transaction, its deliveries stored sent", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const added: NewDelivery[] = [];
      const marked: string[] = [];
      const { engine, storage } = await open(config, {
        at: T0,
        shared: false,
        stores: (stores) => spyingDeliveries(stores, { added, marked }),
      });
      const watched = await engine.owner.createSession({ provider: "test", title: "Worker" });
      const watchers = await Promise.all(
        [0, 1, 2].map((i) => engine.owner.createSession({ provider: "test", title: `W${i}` })),
      );
      for (const watcher of watchers) {
        await engine.execute(watcher.id, {
          action: "subscribe",
          sessions: [watched.id],
          events: ["error"],
        });
      }
      await engine.owner.postMessage(watched.id, "fail: broken");
      await settle([engine], storage);
      const errors = added.filter((row) => row.reason === "urgent");
      expect(errors).toHaveLength(3);
      // Stored once, already sent with the message that carried it: never pending, never marked.
      expect(errors.every((row) => row.status === "sent" && typeof row.messageId === "string")).toBe(true);
      expect(marked.filter((id) => errors.some((row) => row.id === id))).toEqual([]);
      for (const watcher of watchers) {
        const messages = await relayMessages(storage, watcher.id);
        expect(messages.map((m) => m.id)).toEqual([
          errors.find((row) => row.watcher === watcher.id)?.messageId,
        ]);
        expect(messages[0]?.text).toContain('error "broken"');
      }
    });

    it("DESIGN §9: a watcher the claim made ahead finds held by another transaction gets its window and the error once, together, when it is free", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const { engine, storage, clock } = await open(config, { at: T0, shared: false });
      const watched = await engine.owner.createSession({ provider: "test", title: "Worker" });
      const heldId = (await engine.owner.createSession({ provider: "test", title: "Held" })).id;
      const freeId = (await engine.owner.createSession({ provider: "test", title: "Free" })).id;
      for (const watcher of [heldId, freeId]) {
        await engine.execute(watcher, {
          action: "subscribe",
          sessions: [watched.id],
          events: ["turn_end", "error"],
        });
      }
      // The first turn opens both windows; the dispatcher learns whom the session reaches.
      await engine.owner.postMessage(watched.id, "first");
      await settle([engine], storage);

      // Another transaction holds the first watcher (another process sending to it).
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const blocker = storage.stores.transaction(async (tx) => {
        const claim = await tx.deliveries.claimAmong({ now: T0, among: [heldId], limit: 1 });
        expect(claim.watchers).toEqual([heldId]);
        locked();
        await gate;
      });
      await isLocked;
      await engine.owner.postMessage(watched.id, "fail: broke");
      await settle([engine], storage);
      const freeMessages = await relayMessages(storage, freeId);
      expect(freeMessages).toHaveLength(1);
      expect(freeMessages[0]?.text).toContain('"echo: first"');
      expect(freeMessages[0]?.text).toContain('error "broke"');
      expect(await relayMessages(storage, heldId)).toEqual([]);

      release();
      await blocker;
      // What waited for it is due now: the next pass (its timer) takes it.
      await clock.advanceAsync(10);
      await settle([engine], storage);
      const heldMessages = await relayMessages(storage, heldId);
      expect(heldMessages).toHaveLength(1);
      expect(heldMessages[0]?.text).toContain('"echo: first"');
      expect(heldMessages[0]?.text).toContain('error "broke"');
      await clock.advanceAsync(WINDOW_MS);
      await settle([engine], storage);
      expect(await relayMessages(storage, heldId)).toHaveLength(1);
      expect(await relayMessages(storage, freeId)).toHaveLength(1);
    });

    it("DESIGN §3: an event routed again (the cursor set back by hand) is not sent again to a watcher that has it", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const { engine, storage } = await open(config, { at: T0, shared: false });
      const { watcher, watched } = await sessionPair(engine);
      await engine.execute(watcher, { action: "subscribe", sessions: [watched], events: ["error"] });
      await engine.owner.postMessage(watched, "fail: once");
      await settle([engine], storage);
      expect(await relayMessages(storage, watcher)).toHaveLength(1);
      await storage.stores.deliveries.setCursor(0);
      await engine.owner.postMessage(watched, "fail: twice");
      await settle([engine], storage);
      const texts = (await relayMessages(storage, watcher)).map((m) => m.text);
      expect(texts).toHaveLength(2);
      expect(texts.filter((text) => text.includes('error "once"'))).toHaveLength(1);
      expect(texts[1]).toContain('error "twice"');
    });
  },
);

describe.skipIf(!postgres?.available)(
  "sending beside a pass on Postgres (DESIGN §9)",
  { timeout: 60_000 },
  () => {
    it("R-DLV-04: a window that ends while a routing pass is held up goes out beside it, not after it", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      let gate: Promise<void> | null = null;
      let release = () => {};
      let held = 0;
      // While `gate` is set, the routing pass waits inside its transaction, after claiming the cursor.
      const holding = (stores: EngineStores): EngineStores =>
        overriding(stores, {
          events: overriding(stores.events, {
            listEvents: async (input) => {
              if (gate !== null) {
                held += 1;
                await gate;
              }
              return stores.events.listEvents(input);
            },
          }),
          transaction: (work) => stores.transaction((tx) => work(holding(tx))),
        });
      const { engine, storage, clock } = await open(config, { at: T0, shared: true, stores: holding });
      const { watcher, watched } = await sessionPair(engine);
      const other = await engine.owner.createSession({ provider: "test", title: "Other" });
      await engine.execute(watcher, { action: "subscribe", sessions: [watched], events: ["turn_end"] });
      await engine.owner.postMessage(watched, "windowed");
      await settle([engine], storage);
      expect(await relayMessages(storage, watcher)).toEqual([]);

      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await engine.owner.postMessage(other.id, "keeps the router busy");
      const deadline = Date.now() + 10_000;
      while (held === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(held).toBeGreaterThan(0);
      await clock.advanceAsync(WINDOW_MS);
      // The window's end went out while the pass still waits at the gate. (A fake clock's timers
      // fire only as it moves: it moves on a little each time, as real time would.)
      let sent = await relayMessages(storage, watcher);
      while (sent.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await clock.advanceAsync(10);
        sent = await relayMessages(storage, watcher);
      }
      expect(held).toBeGreaterThan(0);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.text).toContain('"echo: windowed"');
      gate = null;
      release();
      await settle([engine], storage);
      expect(await relayMessages(storage, watcher)).toHaveLength(1);
    });
  },
);

/** The stores, with `written` set once a transaction's `appendMessages` has been answered. */
function spyingAppends(stores: EngineStores, seen: { written: number }): EngineStores {
  const wrap = (inner: EngineStores): EngineStores =>
    overriding(inner, {
      sessions: overriding(inner.sessions, {
        appendMessages: async (inputs) => {
          const appended = await inner.sessions.appendMessages(inputs);
          seen.written += inputs.length;
          return appended;
        },
      }),
      transaction: (work) => inner.transaction((tx) => work(wrap(tx))),
    });
  return wrap(stores);
}

/** Waits, in real time (bounded), until `ready` says so. */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await ready()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!postgres?.available)(
  "sends made ready ahead of their time on Postgres (R-DLV-04, DESIGN §9)",
  { timeout: 60_000 },
  () => {
    /** A watcher with a window open on `watched`, the engine's clock just before it ends and the send written. */
    async function windowWritten(config: StorageConfig, ids = "") {
      const seen = { written: 0 };
      const entry = await open(config, { at: T0, shared: true, ids, stores: (s) => spyingAppends(s, seen) });
      const { engine, storage, clock } = entry;
      const { watcher, watched } = await sessionPair(engine);
      await engine.execute(watcher, {
        action: "subscribe",
        sessions: [watched],
        events: ["turn_end", "error"],
      });
      await engine.owner.postMessage(watched, "first");
      await settle([engine], storage);
      const end = await storage.stores.deliveries.nextDeliveryDueAt();
      expect(end).not.toBeNull();
      const dueAt = end as number;
      // The send is made ready ahead of the end (100 ms the first time) and waits for it.
      const before = seen.written;
      await clock.advanceAsync(dueAt - 5 - clock.now());
      await until(() => seen.written > before);
      expect(seen.written).toBe(before + 1);
      return { ...entry, watcher, watched, dueAt };
    }

    it("a window's message is written before its end and seen at it, carrying the events routed meanwhile", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const { engine, storage, clock, watcher, watched, dueAt } = await windowWritten(config);
      // Written, not committed: nobody sees it, and the delivery is still pending.
      expect(await relayMessages(storage, watcher)).toEqual([]);
      expect(await storage.stores.deliveries.nextDeliveryDueAt()).toBe(dueAt);

      // Routed while it waits: a turn_end joins the window, an urgent error would close it. Routing
      // does not wait for the locks the send holds (it would wait until the clock moves, forever).
      await engine.owner.postMessage(watched, "second");
      await settle([engine], storage);
      await engine.owner.postMessage(watched, "fail: third");
      await settle([engine], storage);
      expect(await relayMessages(storage, watcher)).toEqual([]);
      await clock.advanceAsync(4);
      await settle([engine], storage);
      expect(await relayMessages(storage, watcher)).toEqual([]);

      await clock.advanceAsync(1);
      await until(async () => (await relayMessages(storage, watcher)).length > 0);
      await settle([engine], storage);
      const sent = await relayMessages(storage, watcher);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.createdAt).toBe(dueAt);
      expect(sent[0]?.text).toContain('"echo: first"');
      expect(sent[0]?.text).toContain('"echo: second"');
      expect(sent[0]?.text).toContain('error "third"');
      // One wake-up, an urgent one: the message carries the error.
      expect(await storage.stores.deliveries.listWakeups({ watchers: [watcher], since: 0 })).toEqual([
        { messageId: sent[0]?.id, watcher, at: dueAt, kind: "urgent" },
      ]);
      expect(await storage.stores.deliveries.nextDeliveryDueAt()).toBeNull();
      await clock.advanceAsync(WINDOW_MS);
      await settle([engine], storage);
      expect(await relayMessages(storage, watcher)).toHaveLength(1);
    });

    it("a message posted to the watcher while its window's send waits comes after it, in the conversation's order", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const { engine, storage, clock, watcher, dueAt } = await windowWritten(config);
      let posted = false;
      // The post updates the watcher's activity, as the staged send did: it waits for that commit.
      const posting = engine.owner.postMessage(watcher, "from the owner").then(() => {
        posted = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(posted).toBe(false);
      await clock.advanceAsync(dueAt - clock.now());
      await posting;
      await settle([engine], storage);
      const messages = await storage.stores.sessions.listMessages(watcher);
      const relay = messages.findIndex((message) => message.role === "relay");
      const owner = messages.findIndex((message) => message.text === "from the owner");
      expect(relay).toBeGreaterThanOrEqual(0);
      expect(owner).toBeGreaterThan(relay);
    });

    it("DESIGN §3: a send given up before its time (the relay closes) leaves nothing; the next relay sends it once, at its time", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const first = await windowWritten(config);
      await close(first);
      const storage = await openStorage(config);
      cleanups.push(() => storage.close());
      expect(await relayMessages(storage, first.watcher)).toEqual([]);
      expect(await storage.stores.deliveries.nextDeliveryDueAt()).toBe(first.dueAt);

      const second = await open(config, { at: first.dueAt - 1_000, shared: true, ids: "r" });
      await settle([second.engine], second.storage);
      expect(await relayMessages(storage, first.watcher)).toEqual([]);
      await second.clock.advanceAsync(1_000);
      await until(async () => (await relayMessages(storage, first.watcher)).length > 0);
      await settle([second.engine], second.storage);
      const sent = await relayMessages(storage, first.watcher);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.createdAt).toBe(first.dueAt);
      expect(sent[0]?.text).toContain('"echo: first"');
    });
  },
);

describe.skipIf(!postgres?.available)("two engines on one Postgres (DESIGN §9)", { timeout: 60_000 }, () => {
  it("route and send the same outbox without ever delivering an event twice or losing one", async () => {
    const config = await databaseFor(postgres as TestDatabase);
    const a = await open(config, { at: T0, shared: true, ids: "a" });
    const b = await open(config, { at: T0, shared: true, ids: "b" });
    const engines = [a.engine, b.engine];
    const watchers = await Promise.all(
      [1, 2, 3].map((i) => a.engine.owner.createSession({ provider: "test", title: `W${i}` })),
    );
    const watched = await Promise.all(
      [1, 2, 3, 4].map((i) => b.engine.owner.createSession({ provider: "test", title: `S${i}` })),
    );
    for (const watcher of watchers) {
      const result = await b.engine.execute(watcher.id, {
        action: "subscribe",
        sessions: watched.map((s) => s.id),
        events: ["turn_end", "error"],
      });
      expect(result).toMatchObject({ ok: true });
    }
    const prompts: string[] = [];
    for (let round = 0; round < 6; round++) {
      for (const [i, session] of watched.entries()) {
        const text = round % 3 === 2 ? `fail: r${round}s${i}` : `r${round}s${i}`;
        prompts.push(`r${round}s${i}`);
        await (i % 2 === 0 ? a : b).engine.owner.postMessage(session.id, text);
      }
      await settle(engines, a.storage);
      await Promise.all([a.clock.advanceAsync(10_000), b.clock.advanceAsync(10_000)]);
      await settle(engines, a.storage);
    }
    for (let i = 0; i < 4; i++) {
      await Promise.all([a.clock.advanceAsync(WINDOW_MS), b.clock.advanceAsync(WINDOW_MS)]);
      await settle(engines, a.storage);
    }
    for (const watcher of watchers) {
      const text = (await relayMessages(a.storage, watcher.id)).map((m) => m.text).join("\n");
      for (const prompt of prompts) {
        // Each turn's end reached each watcher exactly once (an error turn also sends its error line).
        const endLines = text
          .split("\n")
          .filter((line) => line.includes("turn_end") && line.includes(`${prompt}"`));
        expect(endLines, `${watcher.title} ${prompt}`).toHaveLength(1);
      }
    }
  });
});

describe.skipIf(!postgres?.available)(
  "schedules another process changes on Postgres (DESIGN §9, issue 32)",
  { timeout: 60_000 },
  () => {
    it("a schedule another process made and announced is fired here at once: this process's clock never reaches its backstop", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const here = await open(config, { at: T0, shared: true, ids: "b" });
      const target = await here.engine.owner.createSession({ provider: "test", title: "Target" });
      await settle([here.engine], here.storage);
      // The other process, as far as this one can tell: its rows and its announcement.
      const other = await openStorage(config);
      cleanups.push(() => other.close());
      await other.stores.schedules.insertSchedule({
        id: "sch_elsewhere",
        title: "Made elsewhere",
        text: "Check the nightly build",
        sessionId: target.id,
        createdBy: target.id,
        at: T0,
        everyMinutes: null,
        once: true,
        anchor: T0,
        nextFireAt: T0,
        provenance: null,
        createdAt: T0,
      });
      await other.stores.schedules.announceChanges?.();
      await until(
        async () => (await here.storage.stores.schedules.getSchedule("sch_elsewhere"))?.firedCount === 1,
      );
      expect(await here.storage.stores.schedules.getSchedule("sch_elsewhere")).toMatchObject({
        firedCount: 1,
        lastFiredAt: T0,
      });
      expect(here.clock.now()).toBe(T0);
    });

    it("a schedule made through this process is announced to the others once it is stored", async () => {
      const config = await databaseFor(postgres as TestDatabase);
      const announced = { count: 0 };
      const here = await open(config, {
        at: T0,
        shared: true,
        stores: (stores) =>
          overriding(stores, {
            schedules: overriding(stores.schedules, {
              announceChanges: async () => {
                announced.count++;
                await stores.schedules.announceChanges?.();
              },
            }),
          }),
      });
      const heard = { count: 0 };
      const other = await openStorage(config);
      cleanups.push(() => other.close());
      const stop = other.stores.schedules.onForeignChanges?.(() => heard.count++);
      cleanups.push(async () => stop?.());
      const session = await here.engine.owner.createSession({ provider: "test", title: "Planner" });
      const result = await here.engine.execute(session.id, {
        action: "schedule",
        title: "Later",
        text: "Look at the build.",
        every_minutes: 30,
      });
      expect(result).toMatchObject({ ok: true });
      expect(announced.count).toBe(1);
      await until(() => heard.count > 0);
      expect(heard.count).toBeGreaterThan(0);
    });
  },
);
