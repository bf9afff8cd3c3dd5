// bench/events: how late the subscription dispatcher delivers, on Postgres. A relay process
// (`oar-relay start`) on a scratch database; 1,000 watcher conversations × 20 subscriptions each
// over 200 watched `script` sessions, prompted at a steady rate (plain prompts: turn_end, released
// at the end of the watcher's 30 s window; `!error` prompts: urgent, released at once), with a
// burst that takes 50 of the watchers past the hourly cap. Read back from the database: each
// delivery's lateness after its designed release time (p50/p99/max), against pg_notify round
// trips on the same database in the same run. Goals: p99 ≤ 10× the round trip's p99, no wake-up
// beyond the cap, no duplicate, no miss (the run exits 1 on any of the last three).
// `--processes N` runs the same load through HAProxy in front of N relay processes on the one
// database; `--find-knee` raises the prompt rates until the p99 passes 1 s.
import { parseBenchFlags, processesFlag } from "../lib/bench-flags";
import { findKnee } from "./find-knee";
import { measureOnce } from "./measure";
import { PLANS, scaledPlan } from "./plan";

const USAGE =
  "usage: pnpm bench:events [full|quick] [--random-arrivals] [--cap-digests] [--keep] [--processes N] [--rate F] [--seconds S] [--find-knee] [postgres://admin-url]\n" +
  `  quick          ${PLANS.quick.watchers} watchers, ${PLANS.quick.loadSeconds} s of load (full: ${PLANS.full.watchers}, ${PLANS.full.loadSeconds} s)\n` +
  "  --random-arrivals  each stream of prompts a Poisson process at its rate (seeded), not every stream on one beat\n" +
  "  --cap-digests  also wait for the cap's digests, held 10 min (the run takes 10 min longer)\n" +
  "  --keep         keep the scratch database afterwards, to look into it\n" +
  "  --processes N  N relay processes on the one database behind HAProxy (1 goes through it too)\n" +
  "  --rate F       every stream of prompts F times as fast; --seconds S of load instead of the plan's\n" +
  "  --find-knee    raise the rates step by step (×2, ×4, …; 45 s each) until the lateness p99 passes 1 s";
const flags = parseBenchFlags(process.argv.slice(2), {
  values: ["--processes", "--rate", "--seconds"],
  switches: ["--random-arrivals", "--cap-digests", "--keep", "--find-knee"],
});
const processes = typeof flags === "string" ? flags : processesFlag(flags);
if (typeof flags === "string" || typeof processes === "string") {
  console.error(`${typeof flags === "string" ? flags : processes}\n${USAGE}`);
  process.exit(2);
}
const unknown = flags.positional.filter(
  (arg) => !["full", "quick"].includes(arg) && !/^postgres(ql)?:\/\//.test(arg),
);
const rate = Number(flags.values.get("--rate") ?? 1);
const basePlan = PLANS[flags.positional.includes("quick") ? "quick" : "full"];
const seconds = Number(flags.values.get("--seconds") ?? basePlan.loadSeconds);
if (unknown.length > 0 || !(rate > 0) || !(seconds > 0)) {
  console.error(
    `${unknown.length > 0 ? `unknown argument ${unknown.join(" ")}` : "bad --rate or --seconds"}\n${USAGE}`,
  );
  process.exit(2);
}
const plan = rate === 1 && seconds === basePlan.loadSeconds ? basePlan : scaledPlan(basePlan, rate, seconds);

const began = performance.now();
function progress(label: string): void {
  console.error(`· ${label} (${((performance.now() - began) / 1000).toFixed(1)} s)`);
}

const options = {
  plan,
  arrivals: flags.switches.has("--random-arrivals") ? ("random" as const) : ("aligned" as const),
  adminUrl:
    flags.positional.find((arg) => /^postgres(ql)?:\/\//.test(arg)) ??
    "postgres://postgres@127.0.0.1:5432/postgres",
  ...(processes === undefined ? {} : { processes }),
  waitForCapDigests: flags.switches.has("--cap-digests"),
  keepDatabase: flags.switches.has("--keep"),
  progress,
};
if (flags.switches.has("--find-knee")) {
  const steps = await findKnee({ ...options, processes: processes ?? 1 });
  process.exit(steps.some((step) => step.failed) ? 1 : 0);
}
const result = await measureOnce(options);
process.exit(result.failed ? 1 : 0);
