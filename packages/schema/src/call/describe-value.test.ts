import { describe, expect, it } from "vitest";
import { describeKind, describeValue } from "./describe-value";

describe("describeValue", () => {
  it("R-CALL-04: renders values short and safely for error messages", () => {
    expect(describeValue(501)).toBe("501");
    expect(describeValue("yolo")).toBe('"yolo"');
    expect(describeValue("x".repeat(100))).toBe(`"${"x".repeat(40)}…"`);
    expect(describeValue(10n)).toBe("10n");
    expect(describeValue([1, 2])).toBe("a list of 2");
    expect(describeValue({ a: 1 })).toBe("an object");
    expect(describeValue(Symbol("s"))).toBe("a symbol");
    expect(describeValue(undefined)).toBe("nothing");
  });

  it("names JSON kinds", () => {
    expect(describeKind(null)).toBe("null");
    expect(describeKind([])).toBe("a list");
    expect(describeKind(Number.NaN)).toBe("NaN");
    expect(describeKind(() => 1)).toBe("a function");
  });
});
