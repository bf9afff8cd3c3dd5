import { describe, expect, it } from "vitest";
import { textArray } from "../src/stores/rows";
import { testDatabases, useTestStorage } from "./databases";

// Ids come from the relay's own generator, but a list bound as one array literal must not depend
// on that: quotes, backslashes, commas, braces, spaces and the word NULL stay themselves.
const AWKWARD = ['a"b', "c\\d", "e,f", "{g}", "NULL", "h i", "", "日本", 'j\\"k'];

describe("textArray", () => {
  it("quotes every element and escapes quotes and backslashes", () => {
    expect(textArray([])).toBe("{}");
    expect(textArray(['a"b', "c\\d", "e,f"])).toBe('{"a\\"b","c\\\\d","e,f"}');
  });
});

for (const database of testDatabases) {
  describe.skipIf(!database.available)(`id lists bound as one parameter on ${database.name}`, () => {
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
  });
}
