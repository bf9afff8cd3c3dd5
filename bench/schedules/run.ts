// bench/schedules: how late the relay's durable schedules (relay_tool `schedule`, spec §33) fire
// on PGlite and on Postgres, against pg-boss's delayed jobs (`send` with `startAfter`) on the same
// Postgres database in the same run: the same instants, distinct milliseconds spread over a few
// minutes, for each. Goals: the relay's p99 ≤ 250 ms on PGlite and on Postgres, on Postgres ≥ 30×
// better than pg-boss's p99 with its default polling; no duplicates, no misses.
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@oar/core/testing";
import { parseBenchFlags, processesFlag } from "../lib/bench-flags";
import { createScratchDatabase, type ScratchDatabase } from "../lib/scratch-database";
import { type Firings, instantOffsets, summarize } from "./figures";
import { findKnee } from "./find-knee";
import { PG_BOSS_VERSION, pgBossLeg } from "./pg-boss-leg";
import { PROCESSES_HEADER, processesLeg, processesRow } from "./processes-leg";
import { relayLeg } from "./relay-leg";

const USAGE = `usage: pnpm bench:schedules [count] [seconds] [postgres://admin-url] [--processes N] [--find-knee]
  count seconds   schedules over that many seconds (default 1000 over 180)
  --processes N   the relay on Postgres alone, N processes behind HAProxy (no PGlite, no pg-boss)
  --find-knee     raise schedules/s step by step (30 s each) until the p99 passes 1 s (with --processes N, default 1)`;
const flags = parseBenchFlags(process.argv.slice(2), {
  values: ["--processes"],
  switches: ["--find-knee"],
});
const processes = typeof flags === "string" ? flags : processesFlag(flags);
if (typeof flags === "string" || typeof processes === "string") {
  console.error(`${typeof flags === "string" ? flags : processes}\n${USAGE}`);
  process.exit(2);
}
const COUNT = Number(flags.positional[0] ?? 1000);
const SPREAD_SECONDS = Number(flags.positional[1] ?? 180);
const ADMIN_URL = flags.positional[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const GRACE_MS = 30_000;
const SEED = 33;
const GOAL_P99_MS = 250;
const GOAL_RATIO = 30;

const ms = (n: number) => (Number.isNaN(n) ? "–" : `${n.toFixed(0)} ms`);

function row(firings: Firings): string {
  if (firings.notMeasured !== undefined) {
    return `| ${firings.name} | not measured: ${firings.notMeasured} | | | | | |`;
  }
  if (firings.estimate !== undefined) {
    const e = firings.estimate;
    return `| ${firings.name} | ${e.count} | ≈ ${ms(e.p50)} | ≈ ${ms(e.p99)} | – | – | – | – |`;
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
    const pgliteRows = await relayLeg(undefined, join(folder, "pglite"), options);
    const [pglite] = pgliteRows;
    console.error(`· relay on Postgres: ${COUNT} schedules over ${SPREAD_SECONDS} s`);
    const postgresRows = await relayLeg(database.url, join(folder, "postgres"), options);
    const [relay] = postgresRows;
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
    for (const firings of [...pgliteRows, ...postgresRows, defaults, tuned]) {
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

/** `--processes N` / `--find-knee`: the relay on Postgres only, through the balancer. */
async function onProcesses(count: number, kneeSearch: boolean): Promise<boolean> {
  const loadBefore = loadavg()[0] ?? 0;
  if (kneeSearch) {
    console.error(`· knee search on ${count} process(es)`);
    const steps = await findKnee(ADMIN_URL, count, GRACE_MS, (line) => console.error(`· ${line}`));
    console.log(`load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`);
    return steps.every((step) => step.firings.duplicates === 0);
  }
  const load = { count: COUNT, spreadSeconds: SPREAD_SECONDS };
  console.error(`· relay on Postgres, ${count} process(es): ${COUNT} schedules over ${SPREAD_SECONDS} s`);
  const [firings, ...alongside] = await processesLeg(ADMIN_URL, count, load, GRACE_MS);
  if (firings === undefined) {
    throw new Error("the relay leg returned no figures");
  }
  console.log(
    `\n${firings.name}: ${COUNT} one-off schedules over ${SPREAD_SECONDS} s, load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}; lateness = fired − due`,
  );
  console.log(PROCESSES_HEADER);
  console.log(processesRow(count, load, firings));
  for (const other of alongside.filter((rows) => rows.estimate !== undefined)) {
    console.log(processesRow(count, load, other));
  }
  const p99 = summarize(firings.lateness).p99;
  console.log(
    `\ngoal: p99 ≤ ${GOAL_P99_MS} ms, 0 duplicates, 0 misses: ${ms(p99)}, ${firings.duplicates}, ${firings.misses} ${p99 <= GOAL_P99_MS && firings.duplicates === 0 && firings.misses === 0 ? "met" : "NOT met"}`,
  );
  return p99 <= GOAL_P99_MS && firings.duplicates === 0 && firings.misses === 0;
}

const kneeSearch = flags.switches.has("--find-knee");
process.exitCode = (
  processes !== undefined || kneeSearch
    ? await onProcesses(processes ?? 1, kneeSearch)
    : await main()
)
  ? 0
  : 1;
