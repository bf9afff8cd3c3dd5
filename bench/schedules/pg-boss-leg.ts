import { createRequire } from "node:module";
import PgBoss from "pg-boss";
import { inParallel } from "../lib/owner-api";
import { type Firings, tally, waitUntil } from "./figures";
import type { LegOptions } from "./relay-leg";

export const PG_BOSS_VERSION = (createRequire(import.meta.url)("pg-boss/package.json") as { version: string })
  .version;

/**
 * pg-boss's batch size is 1 by default: one job per poll would fall behind 5 firings a second by
 * minutes, which measures its throughput, not its timing. A batch takes every due job at once.
 */
const BATCH_SIZE = 100;

/** A worker of pg-boss; `pollingIntervalSeconds` absent keeps pg-boss's default (2 s in 10.x). */
export interface PgBossWorker {
  readonly name: string;
  readonly pollingIntervalSeconds?: number;
}

/**
 * pg-boss's delayed jobs on the same database (its own `pgboss` schema): each worker has a queue
 * of its own, one job a instant sent with `startAfter`, and records when it receives each job.
 * The workers run side by side: each polls with one small query, too little to slow the other.
 */
export async function pgBossLeg(
  databaseUrl: string,
  workers: readonly PgBossWorker[],
  options: LegOptions,
): Promise<Firings[]> {
  const boss = new PgBoss({ connectionString: databaseUrl });
  boss.on("error", (error) => console.error(`· pg-boss: ${error.message}`));
  await boss.start();
  try {
    // One after the other: two createQueue calls at once deadlock in pg-boss 10.
    for (const w of workers.keys()) {
      await boss.createQueue(`bench-${w}`);
    }
    const legs = await Promise.all(
      workers.map(async (worker, w) => {
        const queue = `bench-${w}`;
        const received = new Map<string, number[]>();
        await boss.work(
          queue,
          {
            batchSize: BATCH_SIZE,
            ...(worker.pollingIntervalSeconds === undefined
              ? {}
              : { pollingIntervalSeconds: worker.pollingIntervalSeconds }),
          },
          async (jobs) => {
            const now = Date.now();
            for (const job of jobs) {
              received.set(job.id, [...(received.get(job.id) ?? []), now]);
            }
          },
        );
        return { worker, queue, received, due: new Map<string, number>() };
      }),
    );

    // A send is a single insert: 3 s ahead is plenty.
    const start = Date.now() + 3000 + options.offsets.length * workers.length * 2;
    const jobs = legs.flatMap((leg) => options.offsets.map((offset) => ({ leg, at: start + offset })));
    await inParallel(jobs.length, async (j) => {
      const job = jobs[j];
      if (job) {
        const id = await boss.send(job.leg.queue, { at: job.at }, { startAfter: new Date(job.at) });
        if (id === null) {
          throw new Error("pg-boss did not create a job");
        }
        job.leg.due.set(id, job.at);
      }
    });
    if (Date.now() > start) {
      console.error(`· pg-boss: the jobs were sent ${Date.now() - start} ms after the first instant`);
    }

    const last = start + (options.offsets.at(-1) ?? 0);
    await waitUntil(
      async () => legs.every((leg) => leg.received.size >= leg.due.size) && Date.now() > last + 5000,
      last + options.graceMs,
    );
    return legs.map(({ worker, received, due }) => tally(worker.name, due, received));
  } finally {
    await boss.stop({ graceful: false });
  }
}
