import { describe, expect, it } from "vitest";
import { foldRepeats, plainLine } from "../../src/tasks/plain-lines";

describe("task output as plain lines (R-RTO-03)", () => {
  it.each([
    ["colours", "\u001b[32m✓\u001b[39m test passed \u001b[2m(3 ms)\u001b[22m", "✓ test passed (3 ms)"],
    ["a 256-colour and bold sequence", "\u001b[1;38;5;196mFAIL\u001b[0m src/a.test.ts", "FAIL src/a.test.ts"],
    ["a cursor move and line clear", "\u001b[2K\u001b[1Gbuilding…", "building…"],
    ["a terminal title (OSC)", "\u001b]0;npm test\u0007done", "done"],
    ["a hyperlink (OSC 8)", "\u001b]8;;https://example.com\u001b\\link\u001b]8;;\u001b\\", "link"],
    ["a progress bar redrawn in place", "10%\r50%\r100% done", "100% done"],
    ["a Windows line end", "line\r", "line"],
    ["a backspace and a bell", "ab\u0008c\u0007", "abc"],
    ["a tab, kept", "a\tb", "a\tb"],
  ])("%s", (_name, raw, plain) => {
    expect(plainLine(raw)).toBe(plain);
  });

  it("folds consecutive repeats as [×N], and only consecutive ones", () => {
    expect(foldRepeats(["a", "b", "b", "b", "c", "b", "b"])).toEqual(["a", "b [×3]", "c", "b [×2]"]);
    expect(foldRepeats([])).toEqual([]);
    expect(foldRepeats(["", ""])).toEqual([" [×2]"]);
  });
});
