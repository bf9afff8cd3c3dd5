import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { citedIds, definedRules } from "../scripts/rule-ids.ts";
import { REPO_ROOT } from "../scripts/shared-docs.ts";

// The ids below are examples with made-up prefixes (R-ABC, R-XYZ); `pnpm conformance` does not read
// this file as citing any.
const cited = (text: string) => [...citedIds(text)].sort();

describe("the rule ids a test file cites (pnpm conformance)", () => {
  it("reads a single id, a sub-point and an id at the end of a sentence", () => {
    expect(cited("it('R-ABC-07: …')")).toEqual(["R-ABC-07"]);
    expect(cited("(R-ABC-07(d)) and R-XYZ-02.")).toEqual(["R-ABC-07", "R-XYZ-02"]);
  });

  it("expands a list with /", () => {
    expect(cited("R-ABC-01/06")).toEqual(["R-ABC-01", "R-ABC-06"]);
    expect(cited("R-ABC-12/13/14")).toEqual(["R-ABC-12", "R-ABC-13", "R-ABC-14"]);
    expect(cited("R-ABC-19/05")).toEqual(["R-ABC-05", "R-ABC-19"]);
  });

  it("expands a range with …, with or without the prefix again", () => {
    expect(cited("R-ABC-04…07")).toEqual(["R-ABC-04", "R-ABC-05", "R-ABC-06", "R-ABC-07"]);
    expect(cited("R-ABC-01 … R-ABC-03")).toEqual(["R-ABC-01", "R-ABC-02", "R-ABC-03"]);
    expect(cited("R-ABC-09...R-ABC-11, R-ABC-13/14")).toEqual([
      "R-ABC-09",
      "R-ABC-10",
      "R-ABC-11",
      "R-ABC-13",
      "R-ABC-14",
    ]);
  });

  it("cites only the two ends of a list or range that changes prefix", () => {
    expect(cited("R-ABC-02/R-XYZ-06")).toEqual(["R-ABC-02", "R-XYZ-06"]);
    expect(cited("R-ABC-19…R-XYZ-02")).toEqual(["R-ABC-19", "R-XYZ-02"]);
  });

  it("reads no id out of a longer word, a bare prefix or a gap", () => {
    expect(cited("XR-ABC-07, R-ABC: GAP-04 (f)")).toEqual([]);
  });
});

describe("the rules the catalogue defines", () => {
  const catalogue = readFileSync(join(REPO_ROOT, "docs/RELAY_TOOL_SPEC.md"), "utf8");
  const rules = definedRules(catalogue);

  it("reads each rule line with the heading it stands under", () => {
    expect(
      definedRules("## 18. wait\n\n- **R-ABC-01** waits.\n### 33.2 schedule\n- **R-XYZ-04** R-XYZ-05"),
    ).toEqual([
      { id: "R-ABC-01", section: "18. wait" },
      { id: "R-XYZ-04", section: "33.2 schedule" },
    ]);
  });

  it("defines each id once, and every id the catalogue cites", () => {
    const ids = rules.map((rule) => rule.id);
    expect(ids.length).toBeGreaterThan(300);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...citedIds(catalogue)].filter((id) => !ids.includes(id))).toEqual([]);
  });
});
