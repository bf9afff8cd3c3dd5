import { describe, expect, it } from "vitest";
import { MASK } from "../../src/tasks/credential-mask";
import { outputTail } from "../../src/tasks/output-tail";

describe("the tail of a task's output (R-RTO-03, R-RTO-04)", () => {
  it("gives the last lines plain, masked and folded, with the run's counts", () => {
    const text = [
      " RUN  v4.1.12 /srv/app",
      "\u001b[32m ✓ adds\u001b[39m",
      "retrying…",
      "retrying…",
      "retrying…",
      "GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ0123",
      "      Tests  2 failed | 412 passed (414)",
      "",
    ].join("\n");
    expect(outputTail(text, 3)).toEqual({
      tail: ["retrying… [×3]", `GITHUB_TOKEN=${MASK}`, "      Tests  2 failed | 412 passed (414)"],
      truncated: true,
      counts: { runner: "vitest", passed: 412, failed: 2, skipped: 0, final: true },
    });
  });

  it("is not truncated when every line fits, and has no counts for what is not a test run", () => {
    expect(outputTail("one\ntwo\n", 50)).toEqual({ tail: ["one", "two"], truncated: false, counts: null });
  });

  it("read from the end of a larger output: the first, maybe cut, line goes and it is truncated", () => {
    expect(outputTail("ut line\nlast\n", 50, false)).toEqual({
      tail: ["last"],
      truncated: true,
      counts: null,
    });
  });
});
