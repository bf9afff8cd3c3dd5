// The team's shared documents, kept in docs/ so that a clone holds what the README cites. The
// originals are in `../shared` beside the clone; `pnpm docs:sync` copies them, and
// test/docs.test.ts fails when ../shared is there and a copy differs from its original.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SHARED_DIR = join(REPO_ROOT, "..", "shared");

/** Each copy in docs/, and its original's path inside ../shared. */
export const SHARED_DOCS = [
  // The requirements catalogue: the `R-…` ids the tests cite.
  { copy: "docs/RELAY_TOOL_SPEC.md", original: "spec/RELAY_TOOL_SPEC.md" },
  // The design card: architecture, HTTP contract, DESIGN §n and GAP-nn in comments and READMEs.
  { copy: "docs/DESIGN.md", original: "DESIGN.md" },
  // The style guide DESIGN.md points to; code and READMEs cite it as STYLE §n.
  { copy: "docs/STYLE.md", original: "STYLE.md" },
] as const;
