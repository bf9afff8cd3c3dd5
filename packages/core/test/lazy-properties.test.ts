import { describe, expect, it } from "vitest";
import { lazyProperties, lazyPrototypeProperties, overriding } from "../src";

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

describe("lazyPrototypeProperties", () => {
  class Made {
    made: string[] = [];
    constructor(readonly tag: string) {}
  }
  lazyPrototypeProperties(Made.prototype, ["a", "b"], (ports, key) => {
    ports.made.push(key);
    return `${ports.tag}:${key}`;
  });
  type Ports = Made & { a: string; b: string };
  const Ports = Made as unknown as new (tag: string) => Ports;

  it("makes each property of each instance on its first read, once, as an own property", () => {
    const one = new Ports("one");
    const two = new Ports("two");
    expect(one.a).toBe("one:a");
    expect(one.a).toBe("one:a");
    expect(two.a).toBe("two:a");
    expect(one.made).toEqual(["a"]);
    expect(two.made).toEqual(["a"]);
    expect(Object.hasOwn(one, "a")).toBe(true);
    expect(Object.hasOwn(one, "b")).toBe(false);
  });

  it("takes an assignment, and never makes the property then", () => {
    const ports = new Ports("p");
    ports.b = "given";
    expect(ports.b).toBe("given");
    expect(ports.made).toEqual([]);
  });
});

describe("overriding", () => {
  class Store {
    constructor(private readonly rows: number[]) {}
    count(): number {
      return this.rows.length;
    }
    first(): number | undefined {
      return this.rows[0];
    }
  }

  it("keeps the members a spread would drop (the prototype's) and puts the overrides in front", () => {
    const store = new Store([4, 5]);
    const spread = { ...store } as Partial<Store>;
    expect(spread.count).toBeUndefined();
    const counted = overriding(store, { first: () => -1 });
    expect(counted.count()).toBe(2);
    expect(counted.first()).toBe(-1);
    expect(store.first()).toBe(4);
  });

  it("replaces a member the base holds read-only", () => {
    const base = Object.defineProperty({ a: 1 }, "fixed", { value: "base", enumerable: true }) as {
      a: number;
      fixed: string;
    };
    const derived = overriding(base, { fixed: "derived" });
    expect(derived.fixed).toBe("derived");
    expect(derived.a).toBe(1);
    expect(base.fixed).toBe("base");
  });
});
