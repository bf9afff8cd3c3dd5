import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@oar/core/testing";
import { createScratchDatabase } from "../lib/scratch-database";
import { type Firings, instantOffsets, summarize } from "./figures";
import { relayLeg } from "./relay-leg";

const SEED = 33;
/**
 * Lead per schedule before the first instant: a knee step makes thousands over HTTP, and the
 * default run's 15 ms each would have it wait minutes; at 4 ms a run of 6000 beside other load
 * was refused (its first instants had passed before the last were made), so twice that.
 */
const LEAD_MS_PER_SCHEDULE = 8;

/** One load the relay on Postgres is given: `count` one-off schedules over `spreadSeconds`. */
export interface Load {
  readonly count: number;
  readonly spreadSeconds: number;
}

export const perSecond = (load: Load) => load.count / load.spreadSeconds;

/**
 * The relay leg on Postgres alone, through a balancer in front of `processes` relay processes, on
 * a scratch database of its own (each load starts from empty tables, as the single-process run does).
 */
export async function processesLeg(
  adminUrl: string,
  processes: number,
  load: Load,
  graceMs: number,
): Promise<Firings[]> {
  const offsets = instantOffsets(load.count, load.spreadSeconds * 1000, seededRandom(SEED).next);
  const folder = await mkdtemp(join(tmpdir(), "oar-bench-schedules-"));
  const database = await createScratchDatabase(adminUrl);
  try {
    return await relayLeg(database.url, folder, {
      offsets,
      graceMs,
      processes,
      leadMsPerSchedule: LEAD_MS_PER_SCHEDULE,
    });
  } finally {
    await database.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

const ms = (n: number) => (Number.isNaN(n) ? "–" : `${n.toFixed(0)} ms`);

export const PROCESSES_HEADER = [
  "| processes | schedules/s | fired | p50 | p99 | max | duplicates | misses |",
  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
].join("\n");

export function processesRow(processes: number, load: Load, firings: Firings): string {
  if (firings.notMeasured !== undefined) {
    return `| ${processes} | ${perSecond(load).toFixed(1)} | not measured: ${firings.notMeasured} | | | | | |`;
  }
  if (firings.estimate !== undefined) {
    const e = firings.estimate;
    return `| ${processes} (the relay's /metrics, estimated) | ${perSecond(load).toFixed(1)} | ${e.count} | ≈ ${ms(e.p50)} | ≈ ${ms(e.p99)} | – | – | – |`;
  }
  const s = summarize(firings.lateness);
  return `| ${processes} | ${perSecond(load).toFixed(1)} | ${firings.lateness.length} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} | ${firings.duplicates} | ${firings.misses} |`;
}
