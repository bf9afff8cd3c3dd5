import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, SHARED_DIR, SHARED_DOCS } from "../scripts/shared-docs.ts";

// docs/ holds the team's shared documents so that a clone has what the README cites. CI has
// ../shared beside the clone, so there the copies are compared with their originals; a clone alone
// has nothing to compare with and says so in the skipped test's name.
const sharedHere = existsSync(SHARED_DIR);

/** The first line where two texts part, or undefined when they are the same. */
function firstDifference(copy: string, original: string): string | undefined {
  if (copy === original) {
    return undefined;
  }
  const a = copy.split("\n");
  const b = original.split("\n");
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: docs has ${JSON.stringify(a[at] ?? "(end)")}, ../shared has ${JSON.stringify(b[at] ?? "(end)")}`;
}

describe("the documents the README cites are in docs/", () => {
  it.each(SHARED_DOCS.map((doc) => doc.copy))("%s is in the repository", (copy) => {
    expect(existsSync(join(REPO_ROOT, copy))).toBe(true);
  });

  describe.skipIf(!sharedHere)(
    sharedHere
      ? "docs/ matches ../shared"
      : "docs/ matches ../shared (skipped: no ../shared beside this clone)",
    () => {
      it.each(SHARED_DOCS.map((doc) => [doc.copy, doc.original]))(
        "%s is ../shared/%s as it is",
        (copy, original) => {
          const difference = firstDifference(
            readFileSync(join(REPO_ROOT, copy), "utf8"),
            readFileSync(join(SHARED_DIR, original), "utf8"),
          );
          if (difference) {
            expect.fail(`${copy} differs from ../shared/${original} at ${difference}; run pnpm docs:sync`);
          }
        },
      );
    },
  );
});
