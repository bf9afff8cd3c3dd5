import { type BenchDatabase, idList } from "../lib/bench-database";

/** p50, p99 and max of a sample, in its unit; NaN for an empty one. */
export interface Spread {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
}

/** One delivery as the figures need it; times in ms since the epoch. */
interface DeliveryRow {
  readonly watcher: string;
  readonly reason: "window" | "urgent" | "digest" | "quiet" | "cap";
  readonly status: "pending" | "sent" | "dropped";
  readonly due: number;
  readonly settled: number | null;
  readonly routed: number;
  readonly event_at: number;
  readonly message_id: string | null;
  readonly event_id: string;
}

/** Where a delivery's time went after its designed release time (`due`), in ms. */
export interface Stages {
  /** due → the transaction that sent it began (its message's created_at, the delivery's settled_at). */
  readonly began: Spread;
  /** That transaction began → its message was heard committed (the NOTIFY its insert raised). */
  readonly committed: Spread;
  /** due → heard committed: the lateness. */
  readonly late: Spread;
}

export interface Figures {
  readonly events: { readonly turnEnd: number; readonly error: number };
  readonly deliveries: Readonly<Record<DeliveryRow["reason"], number>>;
  readonly messages: number;
  readonly wakeups: { readonly batch: number; readonly urgent: number; readonly cap: number };
  /** Urgent deliveries: due when routed ("at once"); also from the event itself (the turn's end). */
  readonly urgent: Stages & { readonly routed: Spread; readonly fromEvent: Spread };
  /** Window deliveries: due at the end of the watcher's window, or when an urgent event closed it. */
  readonly window: Stages;
  /** The window deliveries sent at the window's end, and those an urgent event closed (sent in its message). */
  readonly windowAtEnd: Stages;
  readonly windowClosed: Stages;
  /** Cap digests sent, after the due time the cap moved them to. */
  readonly capSent: Stages;
  /**
   * The cap's digests, sent (a `cap` wake-up) or scheduled (a held delivery's due time: each
   * distinct one goes as its own message): the closest two of one watcher, and how many came or
   * come less than 10 minutes after that watcher's previous one (R-DLV-05: one every 10 minutes).
   */
  readonly capDigests: {
    readonly watchers: number;
    readonly closestMinutes: number | null;
    readonly tooSoon: number;
  };
  readonly capHeld: {
    readonly deliveries: number;
    readonly watchers: number;
    readonly firstDue: number | null;
  };
  /** From the event's time to its delivery rows (routing); for an urgent one, its due time. */
  readonly routing: Spread;
  /**
   * The transactions that sent messages (each takes up to 20 watchers; its clock reading is the
   * created_at of all its messages): watchers in each, and how long each took until heard committed.
   */
  readonly sending: { readonly watchers: Spread; readonly durationMs: Spread; readonly perWatcherMs: Spread };
  /** Each urgent event's watchers: how many, and the lateness of the first and of the last one heard. */
  readonly fanOut: {
    readonly watchers: Spread;
    readonly first: Spread;
    readonly last: Spread;
    /** The slowest events (by their last watcher heard): when, in s after the run's first urgent event. */
    readonly slowest: readonly {
      readonly atSeconds: number;
      readonly watchers: number;
      readonly lastMs: number;
    }[];
  };
  /** Messages whose commit the observer never heard (their deliveries are left out of `seen`). */
  readonly unseen: number;
  readonly checks: {
    /** Batch wake-ups sent when the watcher already had 20 non-cap wake-ups in the hour before. */
    readonly beyondCap: number;
    readonly mostBatchWakeups: number;
    /** Watchers the cap held back at least once. */
    readonly cappedWatchers: number;
    /** A (watcher, event) stored twice, or an event line repeated in a watcher's messages. */
    readonly duplicateDeliveries: number;
    readonly duplicateLines: number;
    /** Event lines in the messages against sent deliveries: equal when every message says what was sent. */
    readonly lines: number;
    readonly sent: number;
    /** Sent deliveries whose message is in another session than their watcher's. */
    readonly misdirected: number;
    /** (watcher, event) pairs a subscription asked for with no delivery; pending past due; dropped. */
    readonly unrouted: number;
    readonly overdue: number;
    readonly dropped: number;
  };
}

/** R-DLV-05: past the cap, the rest arrives as a digest every 10 minutes. */
const CAP_DIGEST_SECONDS = 600;

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

async function one<T>(db: BenchDatabase, text: string, params: readonly unknown[] = []): Promise<T> {
  const [row] = await db.query<T>(text, params);
  if (row === undefined) {
    throw new Error(`no row from: ${text}`);
  }
  return row;
}

function stages(rows: readonly DeliveryRow[], seen: ReadonlyMap<string, number>): Stages {
  const heard = (row: DeliveryRow) => (row.message_id === null ? undefined : seen.get(row.message_id));
  const both = rows.flatMap((row) => {
    const at = heard(row);
    return at === undefined || row.settled === null ? [] : [{ row, at, settled: row.settled }];
  });
  return {
    began: spread(both.map(({ row, settled }) => settled - row.due)),
    committed: spread(both.map(({ at, settled }) => at - settled)),
    late: spread(both.map(({ row, at }) => at - row.due)),
  };
}

function groupBy<K>(rows: readonly DeliveryRow[], key: (row: DeliveryRow) => K): DeliveryRow[][] {
  const groups = new Map<K, DeliveryRow[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group === undefined) {
      groups.set(key(row), [row]);
    } else {
      group.push(row);
    }
  }
  return [...groups.values()];
}

function sending(sent: readonly DeliveryRow[], seen: ReadonlyMap<string, number>): Figures["sending"] {
  const transactions = groupBy(sent, (row) => row.settled).flatMap((rows) => {
    const heard = rows.map((row) => seen.get(row.message_id ?? "")).filter((at) => at !== undefined);
    const watchers = new Set(rows.map((row) => row.watcher)).size;
    return heard.length === 0 ? [] : [{ watchers, ms: Math.max(...heard) - (rows[0]?.settled ?? 0) }];
  });
  return {
    watchers: spread(transactions.map((t) => t.watchers)),
    durationMs: spread(transactions.map((t) => t.ms)),
    perWatcherMs: spread(transactions.map((t) => t.ms / t.watchers)),
  };
}

function fanOut(urgent: readonly DeliveryRow[], seen: ReadonlyMap<string, number>): Figures["fanOut"] {
  const start = Math.min(...urgent.map((row) => row.due));
  const events = groupBy(urgent, (row) => row.event_id).map((rows) => ({
    due: Math.min(...rows.map((row) => row.due)),
    late: rows.flatMap((row) => {
      const at = seen.get(row.message_id ?? "");
      return at === undefined ? [] : [at - row.due];
    }),
  }));
  const slowest = events
    .filter(({ late }) => late.length > 0)
    .map(({ due, late }) => ({
      atSeconds: (due - start) / 1000,
      watchers: late.length,
      lastMs: Math.max(...late),
    }))
    .sort((a, b) => b.lastMs - a.lastMs)
    .slice(0, 5);
  return {
    watchers: spread(events.map(({ late }) => late.length)),
    first: spread(events.map(({ late }) => Math.min(...late))),
    last: spread(events.map(({ late }) => Math.max(...late))),
    slowest,
  };
}

/** Sessions the figures leave out: the warm-up's watched session and watchers (`warm-up.ts`). */
export interface LeftOut {
  readonly session: string;
  readonly watchers: readonly string[];
}

/**
 * Reads the run back from the database, once the dispatcher has sent what was due. The figures
 * and counts leave out the warm-up; the checks for duplicates, misses and the cap cover it too.
 */
export async function readFigures(
  db: BenchDatabase,
  seen: ReadonlyMap<string, number>,
  endedAt: number,
  leftOut: LeftOut,
): Promise<Figures> {
  const watchers = idList(leftOut.watchers);
  const rows = await db.query<DeliveryRow>(
    `
    select d.watcher, d.reason, d.status, ${ms("d.due_at")} as due, ${ms("d.settled_at")} as settled,
           ${ms("d.created_at")} as routed, ${ms("e.at")} as event_at, d.message_id, d.event_id
    from deliveries d join events e on e.id = d.event_id
    where d.watcher <> all($1::text[])`,
    [watchers],
  );
  const sent = rows.filter((row) => row.status === "sent");
  const sentBy = (reason: DeliveryRow["reason"]) => sent.filter((row) => row.reason === reason);
  const urgent = sentBy("urgent");
  const urgentMessages = new Set(urgent.map((row) => row.message_id));
  const held = rows.filter((row) => row.reason === "cap" && row.status === "pending");
  const deliveries = { window: 0, urgent: 0, digest: 0, quiet: 0, cap: 0 };
  for (const row of rows) {
    deliveries[row.reason]++;
  }

  const events = await one<{ turnEnd: number; error: number }>(
    db,
    `
    select count(*) filter (where kind = 'turn_end')::int as "turnEnd",
           count(*) filter (where kind = 'error')::int as error
    from events where session_id is distinct from $1`,
    [leftOut.session],
  );
  const messages = await db.query<{ id: string }>(
    `select id from messages where role = 'relay' and session_id <> all($1::text[])`,
    [watchers],
  );
  const wakeups = await one<Figures["wakeups"]>(
    db,
    `
    select count(*) filter (where kind = 'batch')::int as batch,
           count(*) filter (where kind = 'urgent')::int as urgent,
           count(*) filter (where kind = 'cap')::int as cap
    from wakeups where watcher <> all($1::text[])`,
    [watchers],
  );
  const capDigests = await one<Figures["capDigests"]>(
    db,
    `select count(distinct watcher)::int as watchers, (min(gap) / 60)::float8 as "closestMinutes",
            (count(*) filter (where gap < ${CAP_DIGEST_SECONDS} - 1))::int as "tooSoon"
     from (select watcher, extract(epoch from at - lag(at) over (partition by watcher order by at)) as gap
           from (select watcher, at from wakeups where kind = 'cap'
                 union
                 select watcher, due_at from deliveries where status = 'pending' and reason = 'cap') digests
          ) c`,
  );
  const capped = await one<{ watchers: number }>(
    db,
    `
    select count(distinct watcher)::int as watchers from deliveries where reason = 'cap'`,
  );
  const checks = await one<Omit<Figures["checks"], "overdue" | "cappedWatchers" | "sent">>(
    db,
    `
    select
      (select count(*) from wakeups w
        where w.kind = 'batch'
          and (select count(*) from wakeups v
                where v.watcher = w.watcher and v.kind <> 'cap'
                  and v.at > w.at - interval '1 hour' and v.at < w.at) >= 20)::int as "beyondCap",
      (select coalesce(max(n), 0) from (select count(*) as n from wakeups where kind = 'batch' group by watcher) b)::int
        as "mostBatchWakeups",
      (select count(*) from (select 1 from deliveries group by watcher, event_id having count(*) > 1) d)::int
        as "duplicateDeliveries",
      (select count(*) - count(distinct (m.session_id, line))
        from messages m, regexp_split_to_table(m.text, E'\\n') as line
        where m.role = 'relay' and line like '[relay event] %')::int as "duplicateLines",
      (select count(*)
        from messages m, regexp_split_to_table(m.text, E'\\n') as line
        where m.role = 'relay' and line like '[relay event] %' and m.session_id <> all($1::text[]))::int as lines,
      (select count(*) from deliveries d join messages m on m.id = d.message_id
        where m.session_id <> d.watcher)::int as misdirected,
      (select count(*) from (
        select e.id, s.watcher from events e
          join subscriptions s on s.sessions @> jsonb_build_array(e.session_id)
                              and s.events @> jsonb_build_array(e.kind)
                              and s.watcher_relay is null and s.relay is null
          where e.kind in ('turn_end', 'error')
        except select event_id, watcher from deliveries) u)::int as unrouted,
      (select count(*) from deliveries where status = 'dropped')::int as dropped`,
    [watchers],
  );
  const overdue = rows.filter((row) => row.status === "pending" && row.due < endedAt - 1_000).length;
  const unseen = new Set(
    sent.filter((row) => row.message_id !== null && !seen.has(row.message_id)).map((row) => row.message_id),
  ).size;

  return {
    events,
    deliveries,
    messages: messages.length,
    wakeups,
    urgent: {
      ...stages(urgent, seen),
      routed: spread(urgent.map((row) => row.due - row.event_at)),
      fromEvent: spread(
        urgent.flatMap((row) => {
          const at = row.message_id === null ? undefined : seen.get(row.message_id);
          return at === undefined ? [] : [at - row.event_at];
        }),
      ),
    },
    window: stages(sentBy("window"), seen),
    windowAtEnd: stages(
      sentBy("window").filter((row) => !urgentMessages.has(row.message_id)),
      seen,
    ),
    windowClosed: stages(
      sentBy("window").filter((row) => urgentMessages.has(row.message_id)),
      seen,
    ),
    capSent: stages(sentBy("cap"), seen),
    capDigests,
    capHeld: {
      deliveries: held.length,
      watchers: new Set(held.map((row) => row.watcher)).size,
      firstDue: held.length === 0 ? null : Math.min(...held.map((row) => row.due)),
    },
    routing: spread(rows.map((row) => row.routed - row.event_at)),
    sending: sending(sent, seen),
    fanOut: fanOut(urgent, seen),
    unseen,
    checks: { ...checks, overdue, cappedWatchers: capped.watchers, sent: sent.length },
  };
}

/** What the dispatcher still has to do now: turns not ended, outbox rows not routed, deliveries due. */
export async function outstanding(
  db: BenchDatabase,
): Promise<{ turns: number; unrouted: number; due: number; held: number }> {
  return one(
    db,
    `
    select (select count(*) from turns where status in ('queued', 'running'))::int as turns,
           ((select coalesce(max(seq), 0) from events) - (select seq from routing_cursor))::int as unrouted,
           (select count(*) from deliveries where status = 'pending' and reason <> 'cap')::int as due,
           (select count(*) from deliveries where status = 'pending' and reason = 'cap')::int as held`,
  );
}

/** The dispatcher's tables, and those of the sessions it reads and writes. */
const PROFILED = [
  "events",
  "subscriptions",
  "deliveries",
  "delivery_watchers",
  "wakeups",
  "sessions",
  "messages",
];

/** Scans (index + sequential: about one per statement that reads a table) and rows written, per table. */
export type TableCounts = ReadonlyMap<string, { readonly scans: number; readonly written: number }>;

/** Postgres' own counts of the database's table scans, as its backends last reported them. */
export async function tableCounts(db: BenchDatabase): Promise<TableCounts> {
  const rows = await db.query<{ relname: string; scans: number; written: number }>(
    `select relname, (seq_scan + coalesce(idx_scan, 0))::float8 as scans,
            (n_tup_ins + n_tup_upd + n_tup_del)::float8 as written
     from pg_stat_user_tables where relname = any(string_to_array($1, ','))`,
    [PROFILED.join(",")],
  );
  return new Map(rows.map((row) => [row.relname, { scans: row.scans, written: row.written }]));
}

export function countsSince(before: TableCounts, after: TableCounts): TableCounts {
  return new Map(
    PROFILED.map((table) => {
      const a = after.get(table);
      const b = before.get(table);
      return [
        table,
        { scans: (a?.scans ?? 0) - (b?.scans ?? 0), written: (a?.written ?? 0) - (b?.written ?? 0) },
      ];
    }),
  );
}
