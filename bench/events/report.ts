import type { Estimate } from "../lib/relay-metrics";
import type { Arrivals } from "./drive";
import type { Figures, Spread, Stages, TableCounts } from "./figures";
import type { Busy } from "./machine";
import type { Plan } from "./plan";
import { SUBSCRIPTIONS_PER_WATCHER } from "./plan";
import type { WarmUp } from "./warm-up";

/** The goal: the dispatcher's p99 lateness within 10 pg_notify round trips (p99). */
const GOAL_RATIO = 10;

const msCell = (value: number) =>
  Number.isNaN(value) || !Number.isFinite(value)
    ? "–"
    : Number.isInteger(value) || value >= 10
      ? value.toFixed(0)
      : value.toFixed(2);
const met = (ok: boolean) => (ok ? "met" : "NOT met");

function row(label: string, figures: Spread): string {
  return `| ${label} | ${figures.count} | ${msCell(figures.p50)} | ${msCell(figures.p99)} | ${msCell(figures.max)} |`;
}

/** One markdown table of spreads (count, p50, p99, max), then a blank line. */
function spreadTable(title: string, counted: string, rows: readonly (readonly [string, Spread])[]): void {
  console.log(`| ${title} | ${counted} | p50 | p99 | max |`);
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const [label, figures] of rows) {
    console.log(row(label, figures));
  }
  console.log("");
}

function ratioLine(label: string, stages: Stages, loaded: Spread, idle: Spread): string {
  if (stages.late.count === 0) {
    return `${label}: no delivery sent`;
  }
  const ratio = stages.late.p99 / loaded.p99;
  return `${label} lateness p99 / pg_notify p99 during the load: ${msCell(stages.late.p99)} / ${msCell(loaded.p99)} ms = ${ratio.toFixed(1)}× (goal ≤ ${GOAL_RATIO}×) ${met(ratio <= GOAL_RATIO)}; ${(stages.late.p99 / idle.p99).toFixed(1)}× the idle round trip's p99`;
}

/** Prints the run's tables and goal lines; true when a check failed (duplicates, misses, wake-ups beyond the cap). */
export function printReport(input: {
  readonly plan: Plan;
  /** What served the load: "1 relay process", or N behind the balancer. */
  readonly relay: string;
  readonly arrivals: Arrivals;
  readonly watcherProvider: string;
  readonly figures: Figures;
  readonly idle: Spread;
  readonly loaded: Spread;
  readonly machine: Busy;
  readonly counts: TableCounts;
  readonly warm: WarmUp;
  /** The relay's own lateness histogram over the load and the drain (its /metrics), when it serves one. */
  readonly fromMetrics?: Estimate;
}): boolean {
  const { plan, figures, idle, loaded, machine, counts } = input;
  const { checks } = figures;
  console.log(
    `\nbench/events (${plan.mode}) — ${plan.watchers} ${input.watcherProvider} watchers × ${SUBSCRIPTIONS_PER_WATCHER} subscriptions over ${plan.watched} script sessions, ${input.relay} on Postgres; ${plan.loadSeconds} s of ${plan.promptsPerSecond} plain prompts/s and ${plan.errorsPerSecond} !error/s, and for the first ${plan.burstSeconds} s ${plan.burstPerSecond} !error/s on ${plan.hotSessions} sessions that ${plan.hotWatchers} watchers watch (past the hourly cap); ${input.arrivals === "random" ? "each stream a Poisson process at its rate (seeded)" : "every stream on one beat from one start"}`,
  );
  const warmed = input.warm.lastHeardMs.map((ms) => msCell(ms)).join(", ");
  console.log(
    `Warm-up before the load, left out of every figure below but the checks: ${input.warm.lastHeardMs.length} !error prompts to a session of its own, each reaching ${input.warm.watchers.length} watchers of their own, its last watcher heard ${warmed} ms after it was routed (the first is the relay's first fan-out since it started).\n`,
  );
  console.log("| counted | |");
  console.log("| --- | ---: |");
  console.log(`| events: turn_end / error | ${figures.events.turnEnd} / ${figures.events.error} |`);
  const d = figures.deliveries;
  console.log(
    `| deliveries: window / urgent / cap | ${d.window + d.urgent + d.cap + d.digest + d.quiet}: ${d.window} / ${d.urgent} / ${d.cap} |`,
  );
  const w = figures.wakeups;
  console.log(
    `| messages: batch / urgent / cap digest | ${figures.messages}: ${w.batch} / ${w.urgent} / ${w.cap} |`,
  );
  console.log("");
  spreadTable("delivery times, ms (due: the designed release time)", "deliveries", [
    ["urgent: event (turn end) → routed, due at once", figures.urgent.routed],
    ["urgent: due → its sending transaction began", figures.urgent.began],
    ["urgent: transaction began → heard committed", figures.urgent.committed],
    ["**urgent lateness: due → heard committed**", figures.urgent.late],
    ["urgent: event → heard committed", figures.urgent.fromEvent],
    ["window: due (window end) → its sending transaction began", figures.window.began],
    ["window: transaction began → heard committed", figures.window.committed],
    ["**window lateness: due → heard committed**", figures.window.late],
    ["window lateness, at the window's end", figures.windowAtEnd.late],
    ["window lateness, closed by an urgent event (in its message)", figures.windowClosed.late],
    ["cap digests: due (as the cap moved it) → heard committed", figures.capSent.late],
    ["routing, every delivery: event → its delivery row", figures.routing],
    ...(input.fromMetrics === undefined
      ? []
      : ([
          [
            "every delivery, the relay's own measure: due → committed (its /metrics; p50/p99 estimated within buckets)",
            { ...input.fromMetrics, max: Number.NaN },
          ],
        ] as const)),
  ]);
  spreadTable("where the time goes", "count", [
    ["sending transactions: watchers in one", figures.sending.watchers],
    ["sending transactions: ms from began to heard committed", figures.sending.durationMs],
    ["sending transactions: ms per watcher", figures.sending.perWatcherMs],
    ["urgent events: watchers each reached", figures.fanOut.watchers],
    ["urgent events: lateness of the first watcher heard, ms", figures.fanOut.first],
    ["urgent events: lateness of the last watcher heard, ms", figures.fanOut.last],
  ]);
  const slowest = figures.fanOut.slowest
    .map(
      (event) => `+${event.atSeconds.toFixed(1)} s (${event.watchers} watchers) ${msCell(event.lastMs)} ms`,
    )
    .join(", ");
  console.log(`Slowest urgent events, by their last watcher heard (s after the first one): ${slowest}.\n`);
  spreadTable("pg_notify round trip, ms", "samples", [
    ["idle, before the load", idle],
    ["during the load", loaded],
  ]);
  const deliveries = Object.values(figures.deliveries).reduce((sum, n) => sum + n, 0);
  console.log(
    "| from the load's start to drained, Postgres' counts | table scans | per delivery | per message | rows written |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const [table, { scans, written }] of counts) {
    console.log(
      `| ${table} | ${scans} | ${(scans / deliveries).toFixed(2)} | ${(scans / figures.messages).toFixed(1)} | ${written} |`,
    );
  }
  console.log("");
  const core =
    machine.relayCore === null
      ? ""
      : `${input.relay === "1 relay process" ? "the relay process" : input.relay} used ${(machine.relayCore * 100).toFixed(0)}% of a core; `;
  console.log(
    `From the load's start to the dispatcher drained: ${core}load average ${machine.load[0].toFixed(1)} → ${machine.load[1].toFixed(1)} on ${machine.cores} cores.`,
  );
  console.log(ratioLine("urgent", figures.urgent, loaded, idle));
  console.log(ratioLine("window", figures.window, loaded, idle));
  const { closestMinutes, tooSoon } = figures.capDigests;
  if (closestMinutes !== null) {
    console.log(
      `cap digests, sent (${w.cap}) or scheduled: the closest two of one watcher ${closestMinutes.toFixed(1)} min apart (R-DLV-05: one every 10 min)`,
    );
  }
  if (figures.capHeld.deliveries > 0 && figures.capHeld.firstDue !== null) {
    const inMin = (figures.capHeld.firstDue - Date.now()) / 60_000;
    console.log(
      `held by the cap at the end: ${figures.capHeld.deliveries} deliveries of ${figures.capHeld.watchers} watchers, the first due in ${inMin.toFixed(1)} min (--cap-digests waits for them)`,
    );
  }
  if (figures.unseen > 0) {
    console.log(
      `${figures.unseen} messages were never heard committed: their deliveries are left out of "heard".`,
    );
  }
  // An event line more than the sent deliveries is a duplicate; one fewer, a delivery marked sent unsaid.
  const extraLines = Math.max(0, checks.lines - checks.sent);
  const missingLines = Math.max(0, checks.sent - checks.lines);
  const duplicates = checks.duplicateDeliveries + checks.duplicateLines + extraLines;
  const misses = checks.unrouted + checks.overdue + checks.dropped + checks.misdirected + missingLines;
  const beyondCap = checks.beyondCap + tooSoon;
  console.log(
    `wake-ups beyond the cap: ${beyondCap} (batch wake-ups sent after 20 non-cap wake-ups in the hour before: ${checks.beyondCap}; cap digests sent or scheduled less than 10 min after the watcher's previous one: ${tooSoon}; most batch wake-ups of one watcher: ${checks.mostBatchWakeups}; watchers the cap held: ${checks.cappedWatchers}) ${met(beyondCap === 0)}`,
  );
  console.log(
    `duplicates: ${duplicates} (deliveries stored twice: ${checks.duplicateDeliveries}; event lines repeated in a watcher's messages: ${checks.duplicateLines}; event lines ${checks.lines} vs sent deliveries ${checks.sent}) ${met(duplicates === 0)}`,
  );
  console.log(
    `misses: ${misses} (events a subscription asked for with no delivery: ${checks.unrouted}; pending past due: ${checks.overdue}; dropped: ${checks.dropped}; sent into another session: ${checks.misdirected}) ${met(misses === 0)}`,
  );
  return beyondCap > 0 || duplicates > 0 || misses > 0;
}
