import { sql } from "drizzle-orm";
import type { Storage } from "./storage";
import { withDeadline } from "./stores/guard";

/** Whether the database answers a trivial query within `ms` (GET /healthz, DESIGN §4). */
export async function databaseAnswers(storage: Storage, ms = 2_000): Promise<boolean> {
  try {
    await withDeadline("healthz", ms, () => storage.db.execute(sql`select 1`));
    return true;
  } catch {
    return false;
  }
}
