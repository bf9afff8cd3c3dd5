// `pnpm conformance`: every rule id of the requirements catalogue (docs/RELAY_TOOL_SPEC.md) with
// the test files that cite it, then the ones no test file cites, by section. Test files are the
// `*.test.ts` files and the store contract suites (`src/testing/*-contract.ts`), which the
// `*.test.ts` files run on each store. A file cites an id when the id appears anywhere in it, in
// a test's name or in a comment; ranges and lists are expanded (see rule-ids.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { citedIds, definedRules } from "./rule-ids.ts";
import { REPO_ROOT } from "./shared-docs.ts";

const CATALOGUE = "docs/RELAY_TOOL_SPEC.md";
const SKIPPED_DIRS = new Set(["node_modules", "dist", "coverage", ".git", ".turbo", ".relay", ".tmp"]);
const TEST_FILE = /(\.test\.[cm]?[jt]sx?|\/src\/testing\/[^/]+-contract\.ts)$/;
// The test of the id parsing: its ids are examples, not citations.
const NOT_CITING = new Set(["test/rule-ids.test.ts"]);

function testFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) {
      files.push(...testFiles(path));
    } else if (entry.isFile()) {
      const file = relative(REPO_ROOT, path);
      if (TEST_FILE.test(`/${file}`) && !NOT_CITING.has(file)) {
        files.push(file);
      }
    }
  }
  return files.sort();
}

const rules = definedRules(readFileSync(join(REPO_ROOT, CATALOGUE), "utf8"));
const defined = new Set(rules.map((rule) => rule.id));
const citing = new Map<string, string[]>();
const files = testFiles(REPO_ROOT);
for (const file of files) {
  for (const id of citedIds(readFileSync(join(REPO_ROOT, file), "utf8"))) {
    citing.set(id, [...(citing.get(id) ?? []), file]);
  }
}

const out: string[] = [
  `Rules of ${CATALOGUE} and the test files that cite them (*.test.ts, and the contract suites`,
  "src/testing/*-contract.ts; ranges such as R-SCH-04…07 and lists such as R-ANS-01/06 expanded)",
];
let section: string | undefined;
for (const { id, section: heading } of rules) {
  if (heading !== section) {
    section = heading;
    out.push("", `§${heading}`);
  }
  const [first = "(no test file)", ...others] = citing.get(id) ?? [];
  out.push(`  ${id.padEnd(12)}${first}`, ...others.map((file) => `  ${"".padEnd(12)}${file}`));
}

const uncited = rules.filter((rule) => !citing.has(rule.id));
out.push("", `Cited by no test file (${uncited.length}), by section:`);
const bySection = new Map<string, string[]>();
for (const { id, section: heading } of uncited) {
  bySection.set(heading, [...(bySection.get(heading) ?? []), id]);
}
for (const [heading, ids] of bySection) {
  out.push(`  §${heading}: ${ids.join(", ")}`);
}

const unknown = [...citing.keys()].filter((id) => !defined.has(id)).sort();
if (unknown.length > 0) {
  out.push("", `Cited by test files but not defined in ${CATALOGUE} (${unknown.length}):`);
  for (const id of unknown) {
    out.push(`  ${id.padEnd(12)}${citing.get(id)?.join(", ")}`);
  }
}

const cited = rules.length - uncited.length;
out.push(
  "",
  `cited ${cited} of ${rules.length} rule ids (${uncited.length} by no test file), in ${files.length} test files`,
);
console.log(out.join("\n"));
