import { describe, expect, it } from "vitest";
import { lazyProperties } from "../src";

describe("lazyProperties", () => {
  it("makes each property on its first read, once", () => {
    const made: string[] = [];
    const object = lazyProperties<{ a: { n: number }; b: { n: number } }>({
      a: () => {
        made.push("a");
        return { n: 1 };
      },
      b: () => {
        made.push("b");
        return { n: 2 };
      },
    });
    expect(made).toEqual([]);
    const first = object.a;
    expect(object.a).toBe(first);
    expect(made).toEqual(["a"]);
    expect(object.b.n).toBe(2);
    expect(made).toEqual(["a", "b"]);
  });

  it("lists every property, and a spread makes and copies them all", () => {
    const object = lazyProperties<{ a: number; b: number }>({ a: () => 1, b: () => 2 });
    expect(Object.keys(object)).toEqual(["a", "b"]);
    expect({ ...object, b: 3 }).toEqual({ a: 1, b: 3 });
  });

  it("takes an assignment before or after the first read, and never makes it then", () => {
    let calls = 0;
    const object = lazyProperties<{ a: number; b: number }>({ a: () => ++calls, b: () => ++calls });
    object.a = 10;
    expect(object.a).toBe(10);
    expect(object.b).toBe(1);
    object.b = 20;
    expect(object.b).toBe(20);
    expect(calls).toBe(1);
  });
});
