// bench/events: how late the subscription dispatcher delivers, on Postgres. A relay process
// (`oar-relay start`) on a scratch database; 1,000 watcher conversations × 20 subscriptions each
// over 200 watched `script` sessions, prompted at a steady rate (plain prompts: turn_end, released
// at the end of the watcher's 30 s window; `!error` prompts: urgent, released at once), with a
// burst that takes 50 of the watchers past the hourly cap. Read back from the database: each
// delivery's lateness after its designed release time (p50/p99/max), against pg_notify round
// trips on the same database in the same run. Goals: p99 ≤ 10× the round trip's p99, no wake-up
// beyond the cap, no duplicate, no miss (the run exits 1 on any of the last three).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openBenchDatabase } from "../lib/bench-database";
import { ownerClient } from "../lib/owner-api";
import { startRelayProcess } from "../lib/relay-process";
import { createScratchDatabase } from "../lib/scratch-database";
import { drive } from "./drive";
import { countsSince, outstanding, readFigures, spread, tableCounts } from "./figures";
import { measureBusy } from "./machine";
import { PLANS, SUBSCRIPTIONS_PER_WATCHER } from "./plan";
import { printReport } from "./report";
import { notifyRoundTrips, observeSentMessages } from "./round-trips";
import { createSessions, subscribeAll } from "./setup";
import { warmUp } from "./warm-up";

const USAGE =
  "usage: pnpm bench:events [full|quick] [--random-arrivals] [--cap-digests] [--keep] [postgres://admin-url]\n" +
  `  quick          ${PLANS.quick.watchers} watchers, ${PLANS.quick.loadSeconds} s of load (full: ${PLANS.full.watchers}, ${PLANS.full.loadSeconds} s)\n` +
  "  --random-arrivals  each stream of prompts a Poisson process at its rate (seeded), not every stream on one beat\n" +
  "  --cap-digests  also wait for the cap's digests, held 10 min (the run takes 10 min longer)\n" +
  "  --keep         keep the scratch database afterwards, to look into it";
const args = process.argv.slice(2);
const unknown = args.filter(
  (arg) =>
    !["full", "quick", "--random-arrivals", "--cap-digests", "--keep"].includes(arg) &&
    !/^postgres(ql)?:\/\//.test(arg),
);
if (unknown.length > 0) {
  console.error(`unknown argument ${unknown.join(" ")}\n${USAGE}`);
  process.exit(2);
}
const plan = PLANS[args.includes("quick") ? "quick" : "full"];
const waitForCapDigests = args.includes("--cap-digests");
const keepDatabase = args.includes("--keep");
const arrivals = args.includes("--random-arrivals") ? "random" : "aligned";
const ADMIN_URL =
  args.find((arg) => /^postgres(ql)?:\/\//.test(arg)) ?? "postgres://postgres@127.0.0.1:5432/postgres";
const OWNER_TOKEN = "bench-events-owner-token";
const IDLE_ROUND_TRIPS = 300;
const LOADED_ROUND_TRIP_GAP_MS = 250;
/** After the load, how long the dispatcher may take to send what is due (a window ends within 30 s). */
const DRAIN_MS = 120_000;
const CAP_DRAIN_MS = 12 * 60_000;
/** The warm-up (`warm-up.ts`): as many watchers as a cool session's events reach, a few rounds. */
const WARM_UP_WATCHERS = 100;
const WARM_UP_ROUNDS = 8;

const began = performance.now();
function progress(label: string): void {
  console.error(`· ${label} (${((performance.now() - began) / 1000).toFixed(1)} s)`);
}

const scratch = await createScratchDatabase(ADMIN_URL);
const dataDir = await mkdtemp(join(tmpdir(), "oar-events-"));
let exitCode = 0;
try {
  const relay = await startRelayProcess({
    RELAY_NAME: "events",
    RELAY_OWNER_TOKEN: OWNER_TOKEN,
    RELAY_DATA_DIR: dataDir,
    DATABASE_URL: scratch.url,
  });
  const db = await openBenchDatabase(scratch.url);
  try {
    progress(`relay started on ${scratch.name}`);
    const api = ownerClient(relay.base, OWNER_TOKEN);
    const sessions = await createSessions(api, plan);
    progress(
      `${plan.watched} watched script sessions, ${plan.watchers} ${sessions.watcherProvider} watchers`,
    );
    const subscribing = await measureBusy(relay.pid);
    const cards = await subscribeAll(relay.base, api, plan, sessions);
    const setupCore = (await subscribing.end()).relayCore;
    progress(
      `${plan.watchers * SUBSCRIPTIONS_PER_WATCHER} subscriptions (${cards} approval cards allowed; the relay used ${setupCore === null ? "?" : (setupCore * 100).toFixed(0)}% of a core)`,
    );

    // What autovacuum would have done after 20,000 subscriptions: statistics for the planner and
    // the subscriptions' GIN pending list merged. Without it (autovacuum off on some machines),
    // routing plans from default estimates and scans every subscription for each event.
    const autovacuum = (await db.query<{ autovacuum: string }>("show autovacuum"))[0]?.autovacuum;
    await db.query("vacuum analyze");
    progress(`vacuum analyze (the server's autovacuum is ${autovacuum ?? "?"})`);

    const observer = await observeSentMessages(db);
    const warm = await warmUp(relay.base, api, db, observer, WARM_UP_WATCHERS, WARM_UP_ROUNDS);
    progress(
      `warm-up: ${WARM_UP_ROUNDS} errors to ${WARM_UP_WATCHERS} watchers of their own, each heard by its last watcher ${warm.lastHeardMs.map((ms) => ms.toFixed(0)).join(", ")} ms after it was routed`,
    );
    const idle = spread(await notifyRoundTrips(db, IDLE_ROUND_TRIPS, 5));
    progress(`${IDLE_ROUND_TRIPS} pg_notify round trips, idle`);

    const busy = await measureBusy(relay.pid);
    const countsBefore = await tableCounts(db);
    const loadedSamples = Math.floor((plan.loadSeconds * 1000) / LOADED_ROUND_TRIP_GAP_MS);
    const [driven, loadedTrips] = await Promise.all([
      drive(api, plan, sessions.watched, arrivals),
      notifyRoundTrips(db, loadedSamples, LOADED_ROUND_TRIP_GAP_MS),
    ]);
    const loaded = spread(loadedTrips);
    progress(
      `${driven.prompts} prompts in ${plan.loadSeconds} s (worst slip ${driven.worstSlipMs.toFixed(0)} ms)`,
    );

    const drainUntil = performance.now() + (waitForCapDigests ? CAP_DRAIN_MS : DRAIN_MS);
    let left = await outstanding(db);
    let told = performance.now();
    while (
      (left.turns > 0 || left.unrouted > 0 || left.due > 0 || (waitForCapDigests && left.held > 0)) &&
      performance.now() < drainUntil
    ) {
      if (performance.now() - told > 10_000) {
        progress(
          `draining: ${left.turns} turns, ${left.unrouted} events to route, ${left.due} deliveries pending, ${left.held} held by the cap`,
        );
        told = performance.now();
      }
      await sleep(500);
      left = await outstanding(db);
    }
    const machine = await busy.end();
    progress("dispatcher drained");
    // A message committed just now is heard a round trip later; a backend reports its counts to
    // the statistics at most once a second.
    await sleep(1_500);
    const counts = countsSince(countsBefore, await tableCounts(db));
    await observer.stop();
    const figures = await readFigures(db, observer.seen, Date.now(), warm);
    const failed = printReport({
      plan,
      arrivals,
      watcherProvider: sessions.watcherProvider,
      figures,
      idle,
      loaded,
      machine,
      counts,
      warm,
    });
    exitCode = failed ? 1 : 0;
  } finally {
    await db.close();
    await relay.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
  if (keepDatabase) {
    console.log(`kept: psql ${scratch.url}`);
  } else {
    await scratch.drop();
  }
}
process.exit(exitCode);
