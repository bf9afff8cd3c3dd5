import { setTimeout as sleep } from "node:timers/promises";
import type { BenchDatabase } from "../lib/bench-database";

const RTT_CHANNEL = "oar_bench_rtt";
const SENT_CHANNEL = "oar_bench_sent";

/**
 * The peer: `count` pg_notify round trips on the relay's database, one at a time, `gapMs` apart:
 * NOTIFY sent on one connection of the pool, until the LISTEN connection hears it. This is the
 * path the relay's own outbox hint takes (postgres.js LISTEN, DESIGN §9). Milliseconds.
 */
export async function notifyRoundTrips(db: BenchDatabase, count: number, gapMs: number): Promise<number[]> {
  let waiting: { readonly payload: string; readonly heard: (at: number) => void } | null = null;
  const unlisten = await db.listen(RTT_CHANNEL, (payload) => {
    if (waiting?.payload === payload) {
      waiting.heard(performance.now());
    }
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const payload = `${process.pid}.${i}`;
      const heard = new Promise<number>((resolve) => {
        waiting = { payload, heard: resolve };
      });
      const sent = performance.now();
      await db.notify(RTT_CHANNEL, payload);
      samples.push((await heard) - sent);
      if (gapMs > 0) {
        await sleep(gapMs);
      }
    }
  } finally {
    await unlisten();
  }
  return samples;
}

export interface SentObserver {
  /** When each relay message (by id) was heard committed, in ms since the epoch (the relay's clock). */
  readonly seen: ReadonlyMap<string, number>;
  stop(): Promise<void>;
}

/**
 * Hears every event message the relay commits: a trigger on `messages` (relay role) notifies its
 * id, and a notification is delivered only once its transaction commits, so the time it is heard
 * is when the message became visible to anyone reading the watcher's session, `pg_notify`'s one
 * way after it. The trigger adds one NOTIFY to each send transaction, as each event append has.
 */
export async function observeSentMessages(db: BenchDatabase): Promise<SentObserver> {
  await db.query(`
    create or replace function oar_bench_sent() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${SENT_CHANNEL}', new.id);
      return null;
    end $$`);
  await db.query(`
    create trigger oar_bench_sent after insert on messages
    for each row when (new.role = 'relay') execute function oar_bench_sent()`);
  const seen = new Map<string, number>();
  const unlisten = await db.listen(SENT_CHANNEL, (id) => {
    seen.set(id, performance.timeOrigin + performance.now());
  });
  return { seen, stop: unlisten };
}
