import { sql } from "drizzle-orm";
import type { Storage } from "./storage";
import { withDeadline } from "./stores/guard";
import { rawRows } from "./stores/rows";

/** What the relay's metrics read from the database when they are scraped. */
export interface RelayGauges {
  readonly queuedTurns: number;
  readonly runningTurns: number;
  /** The last seq given to an outbox event (`outbox_head`), 0 before the first. */
  readonly lastEventSeq: number;
  /** The last seq routed into deliveries (`routing_cursor`), 0 before the first routing. */
  readonly routedSeq: number;
}

/**
 * One statement, four index or one-row reads (turns by status, the outbox head, the routing
 * cursor), none of them locking: on Postgres a scrape never waits on a transaction that holds
 * those rows (PGlite's one connection runs it between two others' statements).
 */
export async function readRelayGauges(storage: Storage, ms = 2_000): Promise<RelayGauges> {
  const [row] = await withDeadline("metrics", ms, () =>
    rawRows<Record<string, string | number | null>>(
      storage.db,
      sql`
        select
          (select count(*) from turns where status = 'queued') as queued,
          (select count(*) from turns where status = 'running') as running,
          coalesce((select seq from outbox_head where id = 1), 0) as head,
          coalesce((select seq from routing_cursor where id = 1), 0) as routed`,
    ),
  );
  return {
    queuedTurns: Number(row?.queued ?? 0),
    runningTurns: Number(row?.running ?? 0),
    lastEventSeq: Number(row?.head ?? 0),
    routedSeq: Number(row?.routed ?? 0),
  };
}
