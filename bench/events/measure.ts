import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openBenchDatabase } from "../lib/bench-database";
import { ownerClient } from "../lib/owner-api";
import { estimate, histogramSince, readHistogram } from "../lib/relay-metrics";
import { startRelayTarget } from "../lib/relay-target";
import { createScratchDatabase } from "../lib/scratch-database";
import { type Arrivals, drive } from "./drive";
import {
  countsSince,
  type Figures,
  outstanding,
  readFigures,
  type Spread,
  spread,
  tableCounts,
} from "./figures";
import { measureBusy } from "./machine";
import { type Plan, SUBSCRIPTIONS_PER_WATCHER } from "./plan";
import { printReport } from "./report";
import { notifyRoundTrips, observeSentMessages } from "./round-trips";
import { createSessions, subscribeAll } from "./setup";
import { warmUp } from "./warm-up";

const OWNER_TOKEN = "bench-events-owner-token";
/** The relay's own measure of each delivery's lateness (its /metrics). */
const LATENESS_HISTOGRAM = "oar_relay_delivery_lateness_seconds";
const IDLE_ROUND_TRIPS = 300;
const LOADED_ROUND_TRIP_GAP_MS = 250;
/** After the load, how long the dispatcher may take to send what is due (a window ends within 30 s). */
const DRAIN_MS = 120_000;
const CAP_DRAIN_MS = 12 * 60_000;
/** The warm-up (`warm-up.ts`): as many watchers as a cool session's events reach, a few rounds. */
const WARM_UP_WATCHERS = 100;
const WARM_UP_ROUNDS = 8;

export interface RunOptions {
  readonly plan: Plan;
  readonly arrivals: Arrivals;
  readonly adminUrl: string;
  /** Relay processes behind a balancer; absent, the one process as always. */
  readonly processes?: number;
  readonly waitForCapDigests: boolean;
  readonly keepDatabase: boolean;
  readonly progress: (label: string) => void;
}

export interface RunResult {
  readonly figures: Figures;
  /** pg_notify round trips during the load. */
  readonly loaded: Spread;
  /** A check failed: duplicates, misses, wake-ups beyond the cap. */
  readonly failed: boolean;
}

/**
 * One run of the bench: a scratch database, the relay (one process, or `processes` behind the
 * balancer), the watchers and their subscriptions, the warm-up, the load and the drain; prints the
 * report and returns its figures.
 */
export async function measureOnce(options: RunOptions): Promise<RunResult> {
  const { plan, progress } = options;
  const scratch = await createScratchDatabase(options.adminUrl);
  const dataDir = await mkdtemp(join(tmpdir(), "oar-events-"));
  try {
    const relay = await startRelayTarget(
      {
        RELAY_NAME: "events",
        RELAY_OWNER_TOKEN: OWNER_TOKEN,
        RELAY_DATA_DIR: dataDir,
        DATABASE_URL: scratch.url,
      },
      { ...(options.processes === undefined ? {} : { processes: options.processes }), dir: dataDir },
    );
    const db = await openBenchDatabase(scratch.url);
    try {
      progress(`${relay.label} started on ${scratch.name}`);
      const api = ownerClient(relay.base, OWNER_TOKEN);
      const sessions = await createSessions(api, plan);
      progress(
        `${plan.watched} watched script sessions, ${plan.watchers} ${sessions.watcherProvider} watchers`,
      );
      const subscribing = await measureBusy(relay.pids());
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

      const busy = await measureBusy(relay.pids());
      const countsBefore = await tableCounts(db);
      const relayLateness = () => readHistogram(relay.metricsBases(), OWNER_TOKEN, LATENESS_HISTOGRAM);
      const latenessBefore = await relayLateness();
      const loadedSamples = Math.floor((plan.loadSeconds * 1000) / LOADED_ROUND_TRIP_GAP_MS);
      const [driven, loadedTrips] = await Promise.all([
        drive(api, plan, sessions.watched, options.arrivals),
        notifyRoundTrips(db, loadedSamples, LOADED_ROUND_TRIP_GAP_MS),
      ]);
      const loaded = spread(loadedTrips);
      progress(
        `${driven.prompts} prompts in ${plan.loadSeconds} s (worst slip ${driven.worstSlipMs.toFixed(0)} ms)`,
      );

      const drainUntil = performance.now() + (options.waitForCapDigests ? CAP_DRAIN_MS : DRAIN_MS);
      let left = await outstanding(db);
      let told = performance.now();
      while (
        (left.turns > 0 ||
          left.unrouted > 0 ||
          left.due > 0 ||
          (options.waitForCapDigests && left.held > 0)) &&
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
      // Only when every process served it before and after: a relay from before /metrics has none.
      const latenessAfter = latenessBefore === undefined ? undefined : await relayLateness();
      const fromMetrics =
        latenessAfter === undefined ? undefined : estimate(histogramSince(latenessAfter, latenessBefore));
      await observer.stop();
      const figures = await readFigures(db, observer.seen, Date.now(), warm);
      const failed = printReport({
        plan,
        relay: relay.label,
        arrivals: options.arrivals,
        watcherProvider: sessions.watcherProvider,
        figures,
        idle,
        loaded,
        machine,
        counts,
        warm,
        ...(fromMetrics === undefined ? {} : { fromMetrics }),
      });
      return { figures, loaded, failed };
    } finally {
      await db.close();
      await relay.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    if (options.keepDatabase) {
      console.log(`kept: psql ${scratch.url}`);
    } else {
      await scratch.drop();
    }
  }
}
