import { setTimeout as sleep } from "node:timers/promises";
import type { BenchDatabase } from "../lib/bench-database";

/**
 * Every runner lease seen during the run, with the pid it names: a retired lease's row may be
 * gone by the end, and the ledger still has to say which process ran a turn or a task.
 */
export function watchLeases(
  db: BenchDatabase,
  everyMs: number,
): { readonly pids: Map<string, number | null>; stop(): Promise<void> } {
  const pids = new Map<string, number | null>();
  let stopped = false;
  const read = async () => {
    try {
      for (const row of await db.query<{ name: string; pid: number | null }>(
        "select name, pid from leases where name like 'runner:%'",
      )) {
        pids.set(row.name, row.pid);
      }
    } catch {
      // The bench's own link to the database is never cut; a failed read is taken again next time.
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await read();
      await sleep(everyMs);
    }
  })();
  return {
    pids,
    async stop() {
      stopped = true;
      await loop;
      await read();
    },
  };
}
