// bench/schedules: how late the relay's durable schedules (relay_tool `schedule`, spec §33) fire
// on PGlite and on Postgres, against pg-boss's delayed jobs (`send` with `startAfter`) on the same
// Postgres database in the same run: the same instants, distinct milliseconds spread over a few
// minutes, for each. Goals: the relay's p99 ≤ 250 ms on PGlite and on Postgres, on Postgres ≥ 30×
// better than pg-boss's p99 with its default polling; no duplicates, no misses.
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@oar/core/testing";
import { createScratchDatabase, type ScratchDatabase } from "../lib/scratch-database";
import { type Firings, instantOffsets, summarize } from "./figures";
import { PG_BOSS_VERSION, pgBossLeg } from "./pg-boss-leg";
import { relayLeg } from "./relay-leg";

const COUNT = Number(process.argv[2] ?? 1000);
const SPREAD_SECONDS = Number(process.argv[3] ?? 180);
const ADMIN_URL = process.argv[4] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GRACE_MS = 30_000;
const SEED = 33;
const GOAL_P99_MS = 250;
const GOAL_RATIO = 30;

const ms = (n: number) => (Number.isNaN(n) ? "–" : `${n.toFixed(0)} ms`);

function row(firings: Firings): string {
  if (firings.notMeasured !== undefined) {
    return `| ${firings.name} | not measured: ${firings.notMeasured} | | | | | |`;
  }
  const s = summarize(firings.lateness);
  return `| ${firings.name} | ${firings.lateness.length} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} | ${ms(s.min)} | ${firings.duplicates} | ${firings.misses} |`;
}

async function main(): Promise<boolean> {
  const offsets = instantOffsets(COUNT, SPREAD_SECONDS * 1000, seededRandom(SEED).next);
  const options = { offsets, graceMs: GRACE_MS };
  const folder = await mkdtemp(join(tmpdir(), "oar-bench-schedules-"));
  let database: ScratchDatabase | undefined;
  try {
    database = await createScratchDatabase(ADMIN_URL);
    const loadBefore = loadavg()[0] ?? 0;
    // One after the other, so that none runs beside another's load.
    console.error(`· relay on PGlite: ${COUNT} schedules over ${SPREAD_SECONDS} s`);
    const [pglite] = await relayLeg(undefined, join(folder, "pglite"), options);
    console.error(`· relay on Postgres: ${COUNT} schedules over ${SPREAD_SECONDS} s`);
    const [relay, relayByPostgres] = await relayLeg(database.url, join(folder, "postgres"), options);
    console.error(`· pg-boss ${PG_BOSS_VERSION}: ${COUNT} delayed jobs over ${SPREAD_SECONDS} s, twice`);
    const [defaults, tuned] = await pgBossLeg(
      database.url,
      [
        { name: `pg-boss ${PG_BOSS_VERSION}, default polling (every 2 s), batches of 100` },
        {
          name: `pg-boss ${PG_BOSS_VERSION}, polling at its minimum (0.5 s), batches of 100`,
          pollingIntervalSeconds: 0.5,
        },
      ],
      options,
    );
    if (pglite === undefined || relay === undefined || defaults === undefined || tuned === undefined) {
      throw new Error("a leg returned no figures");
    }

    console.log(
      `\n${COUNT} one-off schedules at distinct instants over ${SPREAD_SECONDS} s, PGlite in a new data directory and Postgres at ${new URL(ADMIN_URL).host}, load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}; lateness = fired − due`,
    );
    console.log("| scheduler | fired | p50 | p99 | max | min | duplicates | misses |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const firings of [pglite, relay, relayByPostgres, defaults, tuned]) {
      if (firings === undefined) {
        continue;
      }
      console.log(row(firings));
    }

    const pgliteP99 = summarize(pglite.lateness).p99;
    const relayP99 = summarize(relay.lateness).p99;
    const ratio = summarize(defaults.lateness).p99 / relayP99;
    // Each goal: the leg it is about, the figure, and whether it is met (only if the leg was measured).
    const goals: [string, Firings, string, boolean][] = [
      [
        `relay on PGlite: p99 ≤ ${GOAL_P99_MS} ms, 0 duplicates, 0 misses (${GRACE_MS / 1000} s grace)`,
        pglite,
        `${ms(pgliteP99)}, ${pglite.duplicates} duplicates, ${pglite.misses} misses`,
        pgliteP99 <= GOAL_P99_MS && pglite.duplicates === 0 && pglite.misses === 0,
      ],
      [`relay on Postgres: p99 ≤ ${GOAL_P99_MS} ms`, relay, ms(relayP99), relayP99 <= GOAL_P99_MS],
      [
        `relay on Postgres: p99 ≥ ${GOAL_RATIO}× better than pg-boss's p99 (default polling)`,
        relay,
        `${ratio.toFixed(1)}×`,
        ratio >= GOAL_RATIO,
      ],
      ["relay on Postgres: 0 duplicates", relay, String(relay.duplicates), relay.duplicates === 0],
      [
        `relay on Postgres: 0 misses (${GRACE_MS / 1000} s grace)`,
        relay,
        String(relay.misses),
        relay.misses === 0,
      ],
    ];
    const measured = (firings: Firings) => firings.notMeasured === undefined;
    console.log("");
    for (const [goal, firings, figure, met] of goals) {
      console.log(
        `goal: ${goal}: ${measured(firings) ? figure : "not measured"} ${measured(firings) && met ? "met" : "NOT met"}`,
      );
    }
    return goals.every(([, firings, , met]) => measured(firings) && met);
  } finally {
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

process.exitCode = (await main()) ? 0 : 1;
