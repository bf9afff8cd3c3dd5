import { setTimeout as sleep } from "node:timers/promises";
import { type BenchDatabase, idList } from "../lib/bench-database";
import { inParallel, type OwnerApi } from "../lib/owner-api";
import type { SentObserver } from "./round-trips";
import { subscribeWatchers } from "./setup";

const ROUND_DEADLINE_MS = 10_000;
const POLL_MS = 20;

/** What the warm-up made (left out of the run's figures) and how late each of its errors reached its last watcher. */
export interface WarmUp {
  readonly session: string;
  readonly watchers: readonly string[];
  /** Per round, in order: the lateness of the error's last watcher heard, ms. */
  readonly lastHeardMs: readonly number[];
}

/**
 * Before the measured load, the fan-out it measures, on sessions of its own: one watched `script`
 * session and `watcherCount` external watchers subscribed to it; each round, a plain prompt (its
 * turn_end opens each watcher's window) and an `!error` (urgent: it closes the window and goes out
 * at once), the next round once every watcher has it. A relay that has just started runs its
 * routing and sending code unoptimized and its pool cold the first few times; the load then
 * measures the relay as it runs after its first minutes, and the warm-up's own figures say what
 * the first events after a start cost. The warm-up's watchers stay below the hourly cap.
 */
export async function warmUp(
  base: string,
  api: OwnerApi,
  db: BenchDatabase,
  observer: SentObserver,
  watcherCount: number,
  rounds: number,
): Promise<WarmUp> {
  const session = String((await api.post("/v1/owner/sessions", { provider: "script", title: "warm-up" })).id);
  const watchers: string[] = [];
  await inParallel(watcherCount, async (i) => {
    const watcher = await api.post("/v1/owner/sessions", {
      provider: "external",
      title: `warm-up watcher ${i}`,
    });
    watchers[i] = String(watcher.id);
  });
  await subscribeWatchers(base, api, watchers, () => [session]);
  for (let round = 0; round < rounds; round++) {
    await Promise.all([
      api.post(`/v1/owner/sessions/${session}/messages`, { text: `warm-up ${round}` }),
      api.post(`/v1/owner/sessions/${session}/messages`, {
        text: `!reply warm-up failure ${round}\n!error warm-up failure ${round}`,
      }),
    ]);
    await untilSent(db, watchers, (round + 1) * watchers.length);
  }
  const rows = await db.query<{ event_id: string; due: number; message_id: string }>(
    `select event_id, (extract(epoch from due_at) * 1000)::float8 as due, message_id
     from deliveries where watcher = any($1::text[]) and reason = 'urgent' and status = 'sent'
     order by due_at`,
    [idList(watchers)],
  );
  const byEvent = new Map<string, number>();
  for (const row of rows) {
    const heard = observer.seen.get(row.message_id);
    if (heard !== undefined) {
      byEvent.set(row.event_id, Math.max(byEvent.get(row.event_id) ?? 0, heard - row.due));
    }
  }
  return { session, watchers, lastHeardMs: [...byEvent.values()] };
}

async function untilSent(db: BenchDatabase, watchers: readonly string[], urgent: number): Promise<void> {
  const deadline = performance.now() + ROUND_DEADLINE_MS;
  for (;;) {
    const [row] = await db.query<{ sent: number }>(
      `select count(*)::int as sent from deliveries
       where watcher = any($1::text[]) and reason = 'urgent' and status = 'sent'`,
      [idList(watchers)],
    );
    if ((row?.sent ?? 0) >= urgent) {
      return;
    }
    if (performance.now() > deadline) {
      throw new Error(
        `warm-up: ${row?.sent ?? 0} of ${urgent} urgent deliveries sent after ${ROUND_DEADLINE_MS} ms`,
      );
    }
    await sleep(POLL_MS);
  }
}
