// bench/schedules: how late the relay's durable schedules (relay_tool `schedule`, spec §33) fire
// on Postgres, against pg-boss's delayed jobs (`send` with `startAfter`) on the same database in
// the same run: the same instants, distinct milliseconds spread over a few minutes, for each.
// Goals: relay p99 ≤ 250 ms and ≥ 30× better than pg-boss's p99 with its default polling,
// no duplicates, no misses.
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
    // One after the other, so that neither runs beside the other's load.
    console.error(`· relay: ${COUNT} schedules over ${SPREAD_SECONDS} s`);
    const [relay, relayByPostgres] = await relayLeg(database.url, folder, options);
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
    if (relay === undefined || defaults === undefined || tuned === undefined) {
      throw new Error("pg-boss returned no figures");
    }

    console.log(
      `\n${COUNT} one-off schedules at distinct instants over ${SPREAD_SECONDS} s, Postgres at ${new URL(ADMIN_URL).host}, load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}; lateness = fired − due`,
    );
    console.log("| scheduler | fired | p50 | p99 | max | min | duplicates | misses |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const firings of [relay, relayByPostgres, defaults, tuned]) {
      if (firings === undefined) {
        continue;
      }
      console.log(row(firings));
    }

    const measured = relay.notMeasured === undefined;
    const relayP99 = summarize(relay.lateness).p99;
    const ratio = summarize(defaults.lateness).p99 / relayP99;
    const goals: [string, string, boolean][] = [
      [`relay p99 ≤ ${GOAL_P99_MS} ms`, ms(relayP99), measured && relayP99 <= GOAL_P99_MS],
      [
        `relay p99 ≥ ${GOAL_RATIO}× better than pg-boss's p99 (default polling)`,
        `${ratio.toFixed(1)}×`,
        measured && ratio >= GOAL_RATIO,
      ],
      ["relay: 0 duplicates", String(relay.duplicates), measured && relay.duplicates === 0],
      [`relay: 0 misses (${GRACE_MS / 1000} s grace)`, String(relay.misses), measured && relay.misses === 0],
    ];
    console.log("");
    for (const [goal, figure, met] of goals) {
      console.log(`goal: ${goal}: ${measured ? figure : "not measured"} ${met ? "met" : "NOT met"}`);
    }
    return goals.every(([, , met]) => met);
  } finally {
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

process.exitCode = (await main()) ? 0 : 1;
