/** The subscriptions each conversation may hold (R-SUB-05): every watcher holds that many. */
export const SUBSCRIPTIONS_PER_WATCHER = 20;

/**
 * What one run builds and drives. The watched sessions are `script` sessions; the first
 * `hotSessions` of them get a burst of `!error` prompts at the start, and the first `hotWatchers`
 * watchers watch every one of them, so the burst takes those past the hourly cap of 20 wake-ups
 * (urgent messages count) while the others stay below it. Everything else is steady.
 */
export interface Plan {
  readonly mode: "full" | "quick";
  readonly watchers: number;
  readonly watched: number;
  readonly hotSessions: number;
  readonly hotWatchers: number;
  readonly loadSeconds: number;
  /** Plain prompts (a turn_end each, released at the end of the watcher's 30 s window), round-robin over every watched session. */
  readonly promptsPerSecond: number;
  /** `!error` prompts (a turn_end and an urgent error each) round-robin over the other sessions, the whole run. */
  readonly errorsPerSecond: number;
  /** `!error` prompts round-robin over the hot sessions during the first `burstSeconds`. */
  readonly burstPerSecond: number;
  readonly burstSeconds: number;
}

export const PLANS: Readonly<Record<Plan["mode"], Plan>> = {
  full: {
    mode: "full",
    watchers: 1000,
    watched: 200,
    hotSessions: 10,
    hotWatchers: 50,
    loadSeconds: 120,
    promptsPerSecond: 0.5,
    errorsPerSecond: 0.05,
    burstPerSecond: 0.5,
    burstSeconds: 50,
  },
  quick: {
    mode: "quick",
    watchers: 200,
    watched: 100,
    hotSessions: 5,
    hotWatchers: 20,
    loadSeconds: 60,
    promptsPerSecond: 2,
    errorsPerSecond: 0.1,
    burstPerSecond: 1,
    burstSeconds: 30,
  },
};

/**
 * The watched sessions (indexes into the watched list) of watcher `w`'s subscriptions, one
 * session each: a hot watcher's first subscriptions take the hot sessions, and every watcher's
 * others take the rest, evenly spread and distinct, so each session is watched by about
 * `watchers × 20 / watched` watchers and each of its events fans out to that many.
 */
export function subscriptionLayout(plan: Plan, w: number): number[] {
  const hot = w < plan.hotWatchers ? Array.from({ length: plan.hotSessions }, (_, i) => i) : [];
  const cool = plan.watched - plan.hotSessions;
  const count = SUBSCRIPTIONS_PER_WATCHER - hot.length;
  const step = Math.max(1, Math.floor(cool / count));
  const rest = Array.from({ length: count }, (_, j) => plan.hotSessions + ((w + j * step) % cool));
  return [...hot, ...rest];
}

/**
 * The same plan, its three streams of prompts `factor` times as fast and its load `loadSeconds`
 * long: the knee search's step. Raising the rate, not the watchers, keeps a step's setup (20
 * subscribe calls a watcher) the same few seconds while the deliveries a second grow just as much.
 */
export function scaledPlan(plan: Plan, factor: number, loadSeconds: number): Plan {
  return {
    ...plan,
    loadSeconds,
    promptsPerSecond: plan.promptsPerSecond * factor,
    errorsPerSecond: plan.errorsPerSecond * factor,
    burstPerSecond: plan.burstPerSecond * factor,
    burstSeconds: Math.min(plan.burstSeconds, loadSeconds),
  };
}
