import { describe, expect, it } from "vitest";
import { createIdGenerator, ID_PREFIXES, idPrefixOf } from "../src/ids";
import { createSequentialIdGenerator } from "../src/testing/sequential-ids";

describe("IdGenerator", () => {
  it("prefixes every id with its kind", () => {
    const ids = createIdGenerator();
    for (const [kind, prefix] of Object.entries(ID_PREFIXES)) {
      const id = ids.next(kind as keyof typeof ID_PREFIXES);
      expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-z]{12}$`));
      expect(idPrefixOf(id)).toBe(prefix);
    }
  });

  it("does not repeat itself over many ids", () => {
    const ids = createIdGenerator();
    const seen = new Set(Array.from({ length: 20_000 }, () => ids.next("session")));
    expect(seen.size).toBe(20_000);
  });

  it("gives predictable ids in tests", () => {
    const ids = createSequentialIdGenerator();
    expect(ids.next("session")).toBe("ses_000000000001");
    expect(ids.next("session")).toBe("ses_000000000002");
    expect(ids.next("group")).toBe("grp_000000000001");
  });

  it("finds no prefix in a bare string", () => {
    expect(idPrefixOf("nounderscore")).toBeUndefined();
    expect(idPrefixOf("_leading")).toBeUndefined();
  });
});
