import type { PruneKind, RetentionStore } from "@oar/engine";
import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../database";
import {
  deliveries,
  events,
  routingCursor,
  scheduleFirings,
  schedules,
  tasks,
  toolCalls,
  wakeups,
} from "../tables";
import { instantParam, rawRows } from "./rows";

/** The table each kind prunes. */
const TABLES: { readonly [Kind in PruneKind]: PgTable } = {
  events,
  deliveries,
  wakeups,
  firings: scheduleFirings,
  toolCalls,
  tasks,
};

export interface RetentionStoreOptions {
  /**
   * The database runs no autovacuum (PGlite): `compact` vacuums and analyzes the pruned tables
   * itself. Elsewhere autovacuum does, on its own schedule, and `compact` does nothing.
   */
  readonly vacuums: boolean;
}

/**
 * Deletes, in one statement, the rows of `table` whose key `pick` selects, and counts them. The
 * rows are locked SKIP LOCKED first: a row another transaction holds (a pruner of another process,
 * a session's deletion) is left for a later batch, so a pruner never waits and never deadlocks.
 */
async function deleteCounted(db: Database, table: PgTable, key: string, pick: SQL): Promise<number> {
  const name = sql.identifier(getTableName(table));
  const column = sql.identifier(key);
  const [row] = await rawRows<{ n: number | string }>(
    db,
    sql`with picked as (${pick}),
      gone as (
        delete from ${name} where ${column} in (
          select ${column} from ${name} where ${column} in (select ${column} from picked)
          for update skip locked
        )
        returning 1
      )
      select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}

export function createRetentionStore(db: Database, options: RetentionStoreOptions): RetentionStore {
  return {
    pruneEvents: ({ keptSince, limit }) =>
      deleteCounted(
        db,
        events,
        "seq",
        // The cursor and the newest seq are each one row (a one-row table, the primary key's end);
        // the pending deliveries are few, read from their partial indexes' rows.
        sql`select e.seq from ${events} e
          where e.at < ${instantParam(keptSince)}
            and e.seq <= (select ${routingCursor.seq} from ${routingCursor} where ${routingCursor.id} = 1)
            and e.seq < (select max(${events.seq}) from ${events})
            and not exists (
              select 1 from ${deliveries} d where d.status = 'pending' and d.event_id = e.id
            )
          limit ${limit}`,
      ),

    pruneDeliveries: ({ keptSince, limit }) =>
      deleteCounted(
        db,
        deliveries,
        "id",
        sql`select ${deliveries.id} from ${deliveries}
          where ${deliveries.status} <> 'pending' and ${deliveries.createdAt} < ${instantParam(keptSince)}
          limit ${limit}`,
      ),

    pruneWakeups: ({ keptSince, limit }) =>
      deleteCounted(
        db,
        wakeups,
        "message_id",
        sql`select ${wakeups.messageId} from ${wakeups} where ${wakeups.at} < ${instantParam(keptSince)}
          limit ${limit}`,
      ),

    pruneFirings: ({ keptSince, limit }) =>
      deleteCounted(
        db,
        scheduleFirings,
        "id",
        sql`select f.id from ${scheduleFirings} f
          join ${schedules} s on s.id = f.schedule_id
          where s.ended_at is not null and s.ended_at < ${instantParam(keptSince)}
          limit ${limit}`,
      ),

    pruneToolCalls: ({ keep, limit }) =>
      deleteCounted(
        db,
        toolCalls,
        "id",
        // Only sessions over `keep` are looked into, each from the newest end of its index.
        sql`select past.id from (
            select ${toolCalls.sessionId} as session_id from ${toolCalls}
            group by ${toolCalls.sessionId} having count(*) > ${keep}
          ) crowded
          cross join lateral (
            select c.id from ${toolCalls} c where c.session_id = crowded.session_id
            order by c.created_at desc, c.seq desc offset ${keep}
          ) past
          limit ${limit}`,
      ),

    pruneTasks: ({ keptSince, limit }) =>
      deleteCounted(
        db,
        tasks,
        "id",
        sql`select ${tasks.id} from ${tasks}
          where ${tasks.status} <> 'running' and ${tasks.outputPath} is null
            and ${tasks.endedAt} is not null and ${tasks.endedAt} < ${instantParam(keptSince)}
          limit ${limit}`,
      ),

    async compact(kinds) {
      if (!options.vacuums || kinds.length === 0) {
        return;
      }
      // One statement, outside any transaction (VACUUM refuses to run in one).
      const names = [...new Set(kinds)].map((kind) => sql.identifier(getTableName(TABLES[kind])));
      await db.execute(sql`vacuum (analyze) ${sql.join(names, sql`, `)}`);
    },

    async countRows() {
      const counts = sql.join(
        (Object.keys(TABLES) as PruneKind[]).map(
          (kind) => sql`(select count(*)::int from ${TABLES[kind]}) as ${sql.identifier(kind)}`,
        ),
        sql`, `,
      );
      const [row] = await rawRows<Record<PruneKind, number | string>>(db, sql`select ${counts}`);
      return Object.fromEntries(
        (Object.keys(TABLES) as PruneKind[]).map((kind) => [kind, Number(row?.[kind] ?? 0)]),
      ) as Record<PruneKind, number>;
    },
  };
}
