import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";

const README = join(import.meta.dirname, "../../../packages/engine/README.md");

/** The README's first ```ts block under "## Usage": the snippet another tool would copy. */
async function usageSnippet(): Promise<string> {
  const readme = await readFile(README, "utf8");
  const usage = readme.slice(readme.indexOf("## Usage"));
  const match = /```ts\n([\s\S]*?)```/.exec(usage);
  if (!match?.[1]) {
    throw new Error("packages/engine/README.md has no ```ts block under ## Usage");
  }
  return match[1];
}

describe("embedding the engine (issue 3: the @oar/engine README's snippet runs)", { timeout: 60_000 }, () => {
  const file = join(import.meta.dirname, `readme-snippet-${process.pid}.generated.ts`);
  afterEach(() => rm(file, { force: true }));

  it("creates an engine over PGlite with the script provider and executes a call", async () => {
    const snippet = await usageSnippet();
    expect(snippet).toContain('openStorage({ driver: "pglite"');
    expect(snippet.trim().split("\n").length).toBeLessThanOrEqual(25);
    await writeFile(file, snippet);
    // The snippet keeps its data in a fresh `my-tool-…` folder of the temp directory: remove it after.
    const before = new Set(await readdir(tmpdir()));
    onTestFinished(async () => {
      for (const name of await readdir(tmpdir())) {
        if (name.startsWith("my-tool-") && !before.has(name)) {
          await rm(join(tmpdir(), name), { recursive: true, force: true });
        }
      }
    });
    const logged: unknown[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((value: unknown) => {
      logged.push(value);
    });
    try {
      await import(/* @vite-ignore */ file);
    } finally {
      log.mockRestore();
    }
    expect(logged).toEqual([
      expect.objectContaining({ ok: true, status: "done", reply: { text: "hi", model: "script-1" } }),
    ]);
  });
});
