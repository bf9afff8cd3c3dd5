import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

// Writes test/durations.json from the JSON report of the last `pnpm test` (.tmp/vitest-results.json):
// each test file's time in whole seconds, the ones under a second left out.
const root = join(import.meta.dirname, "..");
const report = JSON.parse(readFileSync(join(root, ".tmp/vitest-results.json"), "utf8")) as {
  testResults: { name: string; startTime: number; endTime: number }[];
};
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 1000)] as const)
    .filter(([, seconds]) => seconds >= 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(join(root, "test/durations.json"), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
