import { type Firings, summarize } from "./figures";
import { type Load, PROCESSES_HEADER, perSecond, processesLeg, processesRow } from "./processes-leg";

/** The knee: the first load whose p99 lateness passes this (or that misses a schedule). */
export const KNEE_P99_MS = 1000;
/** Each step is short: the load for this long, then the grace. */
const STEP_SECONDS = 30;
/** Schedules a second, doubling from the default load's 5.6/s. */
const STEP_RATES = [10, 25, 50, 100, 200, 400, 800] as const;
/** No step starts after this long: a bounded search, even on a machine that never bends. */
const SEARCH_BUDGET_MS = 8 * 60_000;

export interface KneeStep {
  readonly load: Load;
  readonly firings: Firings;
}

const pastKnee = (firings: Firings) =>
  firings.notMeasured !== undefined || firings.misses > 0 || summarize(firings.lateness).p99 > KNEE_P99_MS;

/**
 * Raises schedules per second step by step on `processes` relay processes until the p99 passes
 * 1 s; returns every step measured, the last the knee (or the highest load, if none passed).
 */
export async function findKnee(
  adminUrl: string,
  processes: number,
  graceMs: number,
  progress: (line: string) => void,
): Promise<KneeStep[]> {
  const began = Date.now();
  const steps: KneeStep[] = [];
  console.log(PROCESSES_HEADER);
  for (const rate of STEP_RATES) {
    if (Date.now() - began > SEARCH_BUDGET_MS) {
      progress(`knee search: out of its ${SEARCH_BUDGET_MS / 60_000} min`);
      break;
    }
    const load = { count: rate * STEP_SECONDS, spreadSeconds: STEP_SECONDS };
    progress(`knee step: ${rate} schedules/s for ${STEP_SECONDS} s on ${processes} process(es)`);
    const [firings, ...alongside] = await processesLeg(adminUrl, processes, load, graceMs);
    if (firings === undefined) {
      throw new Error("the relay leg returned no figures");
    }
    steps.push({ load, firings });
    console.log(processesRow(processes, load, firings));
    for (const other of alongside.filter((rows) => rows.estimate !== undefined)) {
      console.log(processesRow(processes, load, other));
    }
    if (pastKnee(firings)) {
      break;
    }
  }
  const last = steps.at(-1);
  if (last !== undefined) {
    const passed = pastKnee(last.firings);
    console.log(
      passed
        ? `\nknee: ${perSecond(last.load)} schedules/s is the first load whose p99 passes ${KNEE_P99_MS} ms (or misses); compare with \`pnpm bench:schedules ${last.load.count} ${last.load.spreadSeconds} --processes N\``
        : `\nno knee up to ${perSecond(last.load)} schedules/s: the p99 stayed within ${KNEE_P99_MS} ms`,
    );
  }
  return steps;
}
