import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../src";
import { postgresDatabase } from "./databases";

// postgres.js keeps the stack of a failed query's call site in a module-wide map keyed by its
// template strings; an unsafe query (how drizzle sends every statement) gets a new key each time,
// so each failed query stayed in memory for the life of the process: a relay that lived through
// database cuts grew with every statement they failed (the soak's heap snapshots).
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

function retainedBytes(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const FAILED_QUERIES = 10_000;

describe.skipIf(!postgresDatabase.available)("failed queries on Postgres", { timeout: 60_000 }, () => {
  let storage: Storage;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const made = await postgresDatabase.create();
    dispose = made.dispose;
    storage = await openStorage(made.config);
  });
  afterAll(async () => {
    await storage?.close();
    await dispose?.();
  });

  /** A statement the server refuses, with text of its own (as each drizzle statement is a new string). */
  const failing = (i: number) => sql.raw(`select 1 / 0 /* ${i} */`);

  it("leave nothing behind in the driver: the heap after them is what it was before", async () => {
    // Warm-up: the driver's and the test's own code and caches are in place before measuring.
    for (let i = 0; i < 50; i++) {
      await storage.db.execute(failing(-i - 1)).catch(() => {});
    }
    const before = retainedBytes();
    let failed = 0;
    for (let i = 0; i < FAILED_QUERIES; i++) {
      await storage.db.execute(failing(i)).catch((error: unknown) => {
        expect(String((error as { cause?: unknown }).cause ?? error)).toContain("division by zero");
        failed++;
      });
    }
    const grown = retainedBytes() - before;
    expect(failed).toBe(FAILED_QUERIES);
    // Kept, they were ≈ 2.3 MB (≈ 230 bytes each); what is left is noise.
    expect(grown).toBeLessThan(1_000_000);
  });

  it("leave their errors' stacks unformatted until something reads them", async () => {
    // The driver read each failed query's stack to append its origin (none for an unsafe query):
    // a stack formatted for every failure, and with source maps on (tsx, `pnpm start`) each
    // frame's module map parsed and kept for good: the soak's heap snapshots.
    const original = Error.prepareStackTrace;
    let formatted = 0;
    Error.prepareStackTrace = (error, frames) => {
      formatted++;
      return original ? original(error, frames) : `${error}\n${frames.map((f) => `    at ${f}`).join("\n")}`;
    };
    try {
      const failures: Error[] = [];
      for (let i = 0; i < 20; i++) {
        await storage.db.execute(failing(i)).catch((error: Error) => failures.push(error));
      }
      expect(failures).toHaveLength(20);
      expect(formatted).toBe(0);
      const cause = failures[0]?.cause as Error;
      expect(cause.stack).toContain("division by zero");
      expect(formatted).toBe(1);
    } finally {
      Error.prepareStackTrace = original;
    }
  });
});
