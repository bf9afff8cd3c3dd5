/** A test run's tallies as read from its output (R-RTO-03); `final` once the summary is printed. */
export interface TestCounts {
  readonly runner: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly final: boolean;
}

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

const number = (text: string | undefined) => (text === undefined ? 0 : Number(text));

/** `412 passed | 2 failed`, `2 failed, 412 passed`: the count before each word. */
function countsIn(text: string, words: { passed: RegExp; failed: RegExp; skipped: RegExp }): Tally {
  const sum = (word: RegExp) =>
    [...text.matchAll(new RegExp(`(\\d+) (?:${word.source})(?![A-Za-z])`, "g"))].reduce(
      (n, m) => n + number(m[1]),
      0,
    );
  return { passed: sum(words.passed), failed: sum(words.failed), skipped: sum(words.skipped) };
}

/** How each runner's summary reads; the first whose summary or progress is found names the run. */
interface Runner {
  readonly name: string;
  /** A line only this runner prints, seen before any summary. */
  readonly banner?: RegExp;
  /** The final tallies, from the summary lines (several, for runners that print one per binary). */
  readonly summary: (lines: readonly string[]) => Tally | null;
  /** The tallies so far, counted from per-test lines, while no summary is printed. */
  readonly progress?: (lines: readonly string[]) => Tally;
}

const countLines = (lines: readonly string[], passed: RegExp, failed: RegExp, skipped: RegExp): Tally => ({
  passed: lines.filter((line) => passed.test(line)).length,
  failed: lines.filter((line) => failed.test(line)).length,
  skipped: lines.filter((line) => skipped.test(line)).length,
});

/** go test prints no totals: its `--- PASS/FAIL/SKIP` lines are counted, summary or not. */
const goTally = (lines: readonly string[]) =>
  countLines(lines, /^\s*--- PASS: /, /^\s*--- FAIL: /, /^\s*--- SKIP: /);

const RUNNERS: readonly Runner[] = [
  {
    name: "vitest",
    banner: /^\s*RUN\s+v\d+\.\d+/,
    summary: (lines) => {
      const line = lines.findLast((l) => /^\s*Tests\s+\d+ (?:passed|failed|skipped)/.test(l));
      return line === undefined
        ? null
        : countsIn(line, { passed: /passed/, failed: /failed/, skipped: /skipped|todo/ });
    },
    progress: (lines) => countLines(lines, /^\s*[✓√] /, /^\s*[×✗✕] /, /^\s*↓ /),
  },
  {
    name: "jest",
    banner: /^(?:PASS|FAIL) \S/,
    summary: (lines) => {
      const line = lines.findLast((l) => /^Tests:\s+.*\d+ total/.test(l));
      return line === undefined
        ? null
        : countsIn(line, { passed: /passed/, failed: /failed/, skipped: /skipped|todo/ });
    },
    progress: (lines) => countLines(lines, /^\s+[✓√] /, /^\s+[✕×] /, /^\s+○ /),
  },
  {
    name: "mocha",
    summary: (lines) => {
      const passing = lines.findLast((l) => /^\s*\d+ passing \(/.test(l));
      if (passing === undefined) {
        return null;
      }
      return countsIn(lines.filter((l) => /^\s*\d+ (?:passing|failing|pending)\b/.test(l)).join(" "), {
        passed: /passing/,
        failed: /failing/,
        skipped: /pending/,
      });
    },
  },
  {
    name: "node:test",
    summary: (lines) => {
      const value = (key: string) => {
        const line = lines.findLast((l) => new RegExp(`^(?:#|ℹ) ${key} \\d+$`).test(l));
        return line === undefined ? undefined : number(line.split(" ")[2]);
      };
      if (value("tests") === undefined) {
        return null;
      }
      return {
        passed: value("pass") ?? 0,
        failed: value("fail") ?? 0,
        skipped: (value("skipped") ?? 0) + (value("todo") ?? 0),
      };
    },
  },
  {
    name: "pytest",
    banner: /^=+ test session starts =+$/,
    summary: (lines) => {
      const line = lines.findLast((l) =>
        /^=+ .*\d+ (?:passed|failed|skipped|error).* in [\d.]+s.* =+$/.test(l),
      );
      return line === undefined
        ? null
        : countsIn(line, { passed: /passed/, failed: /failed|errors?/, skipped: /skipped|xfailed/ });
    },
    progress: (lines) => countLines(lines, / PASSED(?: |$)/, / (?:FAILED|ERROR)(?: |$)/, / SKIPPED(?: |$)/),
  },
  {
    name: "go test",
    banner: /^=== RUN\s/,
    summary: (lines) => {
      if (!lines.some((l) => /^(?:ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\))|^(?:PASS|FAIL)$/.test(l))) {
        return null;
      }
      return goTally(lines);
    },
    progress: (lines) => goTally(lines),
  },
  {
    name: "cargo test",
    banner: /^running \d+ tests?$/,
    summary: (lines) => {
      const results = lines.filter((l) => /^test result: /.test(l));
      return results.length === 0
        ? null
        : countsIn(results.join(" "), { passed: /passed;/, failed: /failed;/, skipped: /ignored;/ });
    },
    progress: (lines) =>
      countLines(lines, /^test .* \.\.\. ok$/, /^test .* \.\.\. FAILED$/, /^test .* \.\.\. ignored$/),
  },
];

/**
 * The counts of the test run `lines` (plain text) show, or null when they show none. A runner's
 * summary makes them final; before it, the per-test lines printed so far are counted.
 */
export function testCounts(lines: readonly string[]): TestCounts | null {
  for (const runner of RUNNERS) {
    const summary = runner.summary(lines);
    if (summary !== null) {
      return { runner: runner.name, ...summary, final: true };
    }
  }
  for (const runner of RUNNERS) {
    if (
      runner.banner !== undefined &&
      runner.progress !== undefined &&
      lines.some((l) => runner.banner?.test(l))
    ) {
      return { runner: runner.name, ...runner.progress(lines), final: false };
    }
  }
  return null;
}
