import { newOutboxEvent, newSession } from "@oar/engine/testing";
import { newSubscription } from "@oar/scheduler/testing";
import { asc, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { tables } from "../src";
import { isoInstant, selectAll, textArray } from "../src/stores/rows";
import { testDatabases, useTestStorage } from "./databases";

// Ids come from the relay's own generator, but a list bound as one array literal must not depend
// on that: quotes, backslashes, commas, braces, spaces and the word NULL stay themselves.
const T0 = Date.parse("2026-03-10T12:00:00.000Z");
const AWKWARD = ['a"b', "c\\d", "e,f", "{g}", "NULL", "h i", "", "日本", 'j\\"k'];

describe("textArray", () => {
  it("quotes every element and escapes quotes and backslashes", () => {
    expect(textArray([])).toBe("{}");
    expect(textArray(['a"b', "c\\d", "e,f"])).toBe('{"a\\"b","c\\\\d","e,f"}');
  });
});

describe("isoInstant", () => {
  it("gives each instant its own text, the same instant again included", () => {
    const instants = [T0, T0, T0 + 1, T0, 0, -1, T0 + 1];
    expect(instants.map(isoInstant)).toEqual(instants.map((ms) => new Date(ms).toISOString()));
  });

  it("refuses an instant that is not one, as Date does, every time", () => {
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
    expect(isoInstant(T0)).toBe("2026-03-10T12:00:00.000Z");
  });
});

for (const database of testDatabases) {
  describe.skipIf(!database.available)(`the hot queries' helpers on ${database.name}`, () => {
    const test = useTestStorage(database);

    it("finds exactly the listed watchers, however their ids are written", async () => {
      await test.empty();
      const { deliveries } = test.storage().stores;
      const rows = [...AWKWARD, "other"].map((watcher, i) => ({
        id: `dlv_${i}`,
        watcher,
        subscriptionId: null,
        eventId: "evt_1",
        eventSeq: 1,
        reason: "window" as const,
        dueAt: 1_000 + i,
        echoTurnId: null,
        createdAt: 0,
      }));
      await deliveries.addDeliveries(rows);

      const ends = await deliveries.openWindowEnds(AWKWARD);
      expect(new Map([...ends].sort())).toEqual(
        new Map(AWKWARD.map((watcher, i) => [watcher, 1_000 + i] as [string, number]).sort()),
      );
      const claimed = await test
        .storage()
        .stores.transaction((tx) => tx.deliveries.claimAmong({ now: 10_000, among: AWKWARD, limit: 100 }));
      expect(claimed.due.map((row) => row.watcher).sort()).toEqual([...AWKWARD].sort());
      expect([...claimed.watchers].sort()).toEqual([...AWKWARD].sort());
    });

    it("selectAll gives every column of every row as drizzle's own select does: text, nulls, json, booleans, bigints, instants", async () => {
      await test.empty();
      const { stores, db } = test.storage();
      await stores.sessions.createSession(
        newSession("ses_full", {
          effort: "high",
          cwd: "/srv/app",
          createdBy: { relay: "desk", session: "ses_parent" },
          viaAgent: "ses_parent",
          mayCreateSessions: true,
          settings: { nested: { list: [1, "two", null] }, quote: 'a"b' },
        }),
      );
      await stores.sessions.createSession(newSession("ses_bare", { createdAt: T0 + 1 }));
      await stores.subscriptions.createSubscription(
        newSubscription("sub_1", {
          watcher: "ses_full",
          sessions: ["ses_bare", "ses_x"],
          events: ["turn_end", "error"],
          quietHours: { from: "22:00", to: "07:00", tz: "Europe/Berlin" },
          digestMinutes: 15,
        }),
      );
      await stores.events.appendEvent(newOutboxEvent("evt_1", { sessionId: "ses_bare", at: T0 }));
      await stores.deliveries.addDeliveries([
        {
          id: "dlv_1",
          watcher: "ses_full",
          subscriptionId: "sub_1",
          eventId: "evt_1",
          eventSeq: 9_007_199_254_740_000,
          reason: "window",
          dueAt: T0 + 30_000,
          echoTurnId: null,
          createdAt: T0,
        },
      ]);
      await stores.deliveries.recordWakeups([
        { messageId: "msg_1", watcher: "ses_full", at: T0, kind: "urgent" },
      ]);

      const compare = async (table: PgTable, order: Parameters<typeof asc>[0]) => {
        const ours = await selectAll(db, table, sql`order by ${order}`);
        const drizzles = await db.select().from(table).orderBy(asc(order));
        expect(drizzles.length).toBeGreaterThan(0);
        expect(ours).toEqual(drizzles);
      };
      await compare(tables.sessions, tables.sessions.createdAt);
      await compare(tables.subscriptions, tables.subscriptions.seq);
      await compare(tables.events, tables.events.seq);
      await compare(tables.deliveries, tables.deliveries.id);
      await compare(tables.wakeups, tables.wakeups.messageId);
    });
  });
}
