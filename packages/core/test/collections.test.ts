import { describe, expect, it } from "vitest";
import { groupBy } from "../src";

describe("groupBy", () => {
  it("groups in the items' order, keys in the order first seen", () => {
    const grouped = groupBy(["b1", "a1", "b2", "c1", "a2"], (item) => item[0]);
    expect([...grouped]).toEqual([
      ["b", ["b1", "b2"]],
      ["a", ["a1", "a2"]],
      ["c", ["c1"]],
    ]);
    expect(groupBy([], (item: string) => item).size).toBe(0);
  });
});
