import { describe, expect, it } from "vitest";
import { testCounts } from "../../src/tasks/test-counts";

const lines = (text: string) => text.split("\n");

describe("the counts of a test run in a task's output (R-RTO-03)", () => {
  it.each([
    [
      "vitest, final",
      ` RUN  v4.1.12 /srv/app

 ✓ src/a.test.ts (5 tests) 12ms
 × src/b.test.ts > adds (3 ms)

 Test Files  1 failed | 11 passed (12)
      Tests  2 failed | 412 passed | 3 skipped (417)
   Start at  09:12:00`,
      { runner: "vitest", passed: 412, failed: 2, skipped: 3, final: true },
    ],
    [
      "vitest, running",
      ` RUN  v4.1.12 /srv/app

 ✓ sorts (1 ms)
 ✓ merges (2 ms)
 × adds (3 ms)
 ↓ later`,
      { runner: "vitest", passed: 2, failed: 1, skipped: 1, final: false },
    ],
    [
      "jest, final",
      `PASS src/a.test.js
FAIL src/b.test.js
Test Suites: 1 failed, 1 passed, 2 total
Tests:       2 failed, 1 skipped, 40 passed, 43 total
Snapshots:   0 total`,
      { runner: "jest", passed: 40, failed: 2, skipped: 1, final: true },
    ],
    [
      "jest, running",
      `PASS src/a.test.js
  sums
    ✓ adds (2 ms)
    ✕ subtracts (1 ms)
    ○ skipped multiplies`,
      { runner: "jest", passed: 1, failed: 1, skipped: 1, final: false },
    ],
    [
      "mocha",
      `  sums
    ✔ adds

  12 passing (34ms)
  1 pending
  2 failing`,
      { runner: "mocha", passed: 12, failed: 2, skipped: 1, final: true },
    ],
    [
      "node's test runner (TAP)",
      `ok 1 - adds
not ok 2 - subtracts
# tests 5
# suites 1
# pass 3
# fail 1
# cancelled 0
# skipped 1
# todo 0`,
      { runner: "node:test", passed: 3, failed: 1, skipped: 1, final: true },
    ],
    [
      "node's test runner (spec)",
      `ℹ tests 4
ℹ pass 4
ℹ fail 0`,
      { runner: "node:test", passed: 4, failed: 0, skipped: 0, final: true },
    ],
    [
      "pytest, final",
      `============================= test session starts ==============================
collected 417 items
tests/test_a.py ....F
===== 2 failed, 412 passed, 3 skipped in 12.34s =====`,
      { runner: "pytest", passed: 412, failed: 2, skipped: 3, final: true },
    ],
    [
      "pytest -v, running",
      `============================= test session starts ==============================
tests/test_a.py::test_one PASSED                                      [ 10%]
tests/test_a.py::test_two FAILED                                      [ 20%]`,
      { runner: "pytest", passed: 1, failed: 1, skipped: 0, final: false },
    ],
    [
      "go test -v",
      `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestSub
--- FAIL: TestSub (0.00s)
=== RUN   TestMul
--- SKIP: TestMul (0.00s)
FAIL
FAIL	example.com/calc	0.002s`,
      { runner: "go test", passed: 1, failed: 1, skipped: 1, final: true },
    ],
    [
      "cargo test, two binaries",
      `running 3 tests
test a ... ok
test b ... FAILED
test c ... ignored
test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

running 2 tests
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s`,
      { runner: "cargo test", passed: 3, failed: 1, skipped: 1, final: true },
    ],
    [
      "cargo test, running",
      `running 3 tests
test a ... ok
test b ... FAILED`,
      { runner: "cargo test", passed: 1, failed: 1, skipped: 0, final: false },
    ],
  ])("%s", (_name, output, counts) => {
    expect(testCounts(lines(output))).toEqual(counts);
  });

  it.each([
    ["a build", "compiling 12 files\nbuilt in 3.2s"],
    ["a log that mentions tests", "2 tests were renamed\nthe passed value is 3"],
    ["nothing", ""],
  ])("none for %s", (_name, output) => {
    expect(testCounts(lines(output))).toBeNull();
  });
});
