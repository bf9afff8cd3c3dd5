// `pnpm docs:sync`: copies the team's shared documents from ../shared (beside this clone) into
// docs/. Without ../shared there is nothing to copy from: it says so, changes nothing and exits 1.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, SHARED_DIR, SHARED_DOCS } from "./shared-docs.ts";

if (!existsSync(SHARED_DIR)) {
  console.error(`No ../shared beside this clone (looked for ${SHARED_DIR}): docs/ is left as it is.`);
  process.exit(1);
}

for (const { copy, original } of SHARED_DOCS) {
  const from = join(SHARED_DIR, original);
  if (!existsSync(from)) {
    console.error(`${copy}: ../shared/${original} is missing, left as it is`);
    process.exitCode = 1;
    continue;
  }
  const text = readFileSync(from);
  const to = join(REPO_ROOT, copy);
  if (existsSync(to) && readFileSync(to).equals(text)) {
    console.log(`${copy}: up to date`);
    continue;
  }
  writeFileSync(to, text);
  console.log(`${copy}: copied from ../shared/${original}`);
}
