import type { Figures } from "./figures";
import { measureOnce, type RunOptions } from "./measure";
import { type Plan, scaledPlan } from "./plan";

/** The knee: the first load whose lateness p99 (urgent or window, the worse) passes this. */
export const KNEE_P99_MS = 1000;
/** Each step is short: this much load, then the drain. */
const STEP_LOAD_SECONDS = 45;
/** Times the plan's prompt rates, step by step. */
const STEP_FACTORS = [2, 4, 8, 16, 32, 64] as const;
/** No step starts after this long: a bounded search, even on a machine that never bends. */
const SEARCH_BUDGET_MS = 8 * 60_000;

/** The worse of the two lateness p99s, ms. */
export function worstP99(figures: Figures): number {
  return Math.max(figures.urgent.late.p99, figures.window.late.p99);
}

export interface KneeStep {
  readonly plan: Plan;
  readonly factor: number;
  readonly p99: number;
  readonly figures: Figures;
  readonly failed: boolean;
}

const cell = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : "–");

/**
 * Runs the plan faster step by step on the same relay configuration (each step a run of its own on
 * a new scratch database) until its lateness p99 passes 1 s or a check fails; prints a line a step.
 */
export async function findKnee(options: RunOptions): Promise<KneeStep[]> {
  const began = Date.now();
  const steps: KneeStep[] = [];
  for (const factor of STEP_FACTORS) {
    if (Date.now() - began > SEARCH_BUDGET_MS) {
      options.progress(`knee search: out of its ${SEARCH_BUDGET_MS / 60_000} min`);
      break;
    }
    const plan = scaledPlan(options.plan, factor, STEP_LOAD_SECONDS);
    options.progress(
      `knee step ×${factor}: ${plan.promptsPerSecond} plain prompts/s for ${STEP_LOAD_SECONDS} s`,
    );
    let result: Awaited<ReturnType<typeof measureOnce>>;
    try {
      result = await measureOnce({ ...options, plan });
    } catch (error) {
      // A step past what the bench itself can read back (its queries time out) ends the search, not the run.
      console.log(`\nstep ×${factor} not measured: ${(error as Error).message}`);
      break;
    }
    const step = {
      plan,
      factor,
      p99: worstP99(result.figures),
      figures: result.figures,
      failed: result.failed,
    };
    steps.push(step);
    if (step.p99 > KNEE_P99_MS || step.failed) {
      break;
    }
  }
  console.log("\n| step | plain prompts/s | !error/s | urgent p50 / p99 | window p50 / p99 | checks |");
  console.log("| ---: | ---: | ---: | ---: | ---: | --- |");
  for (const step of steps) {
    console.log(
      `| ×${step.factor} | ${step.plan.promptsPerSecond} | ${step.plan.errorsPerSecond} | ${cell(step.figures.urgent.late.p50)} / ${cell(step.figures.urgent.late.p99)} ms | ${cell(step.figures.window.late.p50)} / ${cell(step.figures.window.late.p99)} ms | ${step.failed ? "FAILED" : "ok"} |`,
    );
  }
  const last = steps.at(-1);
  if (last !== undefined) {
    console.log(
      last.p99 > KNEE_P99_MS || last.failed
        ? `\nknee: ×${last.factor} (${last.plan.promptsPerSecond} plain prompts/s) is the first step whose p99 passes ${KNEE_P99_MS} ms (${last.p99.toFixed(0)} ms); compare with \`pnpm bench:events ${last.plan.mode} --rate ${last.factor} --seconds ${STEP_LOAD_SECONDS} --processes N\``
        : `\nno knee up to ×${last.factor}: the p99 stayed within ${KNEE_P99_MS} ms`,
    );
  }
  return steps;
}
