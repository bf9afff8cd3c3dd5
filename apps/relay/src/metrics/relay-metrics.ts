import type { EngineObserver } from "@oar/engine";
import type { RelayGauges, StoreCallListener } from "@oar/storage";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Seconds late: from a millisecond or so (a send right at its time) to minutes (a backlog). */
const LATENESS_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300,
];
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One HTTP request answered, as the request log sees it. */
export interface RequestReport {
  readonly method: string;
  /** The route's pattern (`/v1/owner/sessions/:id`), never the path itself: a bounded set. */
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
}

/** This relay, as `oar_relay_info`'s labels show it. */
export interface RelayFacts {
  readonly name: string;
  readonly version: string;
}

/**
 * This relay's metrics, in a registry of its own (not prom-client's global one: two relays in one
 * process keep theirs apart), and what feeds them: the engine's observer, the storage's call
 * listener, the request log.
 */
export interface RelayMetrics {
  readonly registry: Registry;
  readonly observer: EngineObserver;
  readonly onStoreCall: StoreCallListener;
  onRequest(request: RequestReport): void;
  /** The database once open: its driver and the most connections it opens (PGlite: its one). */
  describeDatabase(driver: string, maxConnections: number): void;
  /** The exposition text, the database's gauges read first (NaN, with `oar_relay_database_up 0`, when it does not answer). */
  scrape(read: () => Promise<RelayGauges>): Promise<string>;
}

const seconds = (ms: number) => Math.max(0, ms) / 1000;

export function createRelayMetrics(facts: RelayFacts): RelayMetrics {
  const registry = new Registry();
  const registers = [registry];
  const turns = new Counter({
    name: "oar_relay_turns_total",
    help: "Turns this process ended, by their session's provider and how they ended (done, error, stopped).",
    labelNames: ["provider", "status"] as const,
    registers,
  });
  const queued = new Gauge({
    name: "oar_relay_queued_turns",
    help: "Turns waiting in their session's queue (the whole database's), read when scraped.",
    registers,
  });
  const running = new Gauge({
    name: "oar_relay_running_turns",
    help: "Turns running (the whole database's), read when scraped.",
    registers,
  });
  const outboxLag = new Gauge({
    name: "oar_relay_outbox_lag_events",
    help: "Outbox events not yet routed to subscriptions: the newest event's seq minus the routing cursor's, read when scraped.",
    registers,
  });
  const databaseUp = new Gauge({
    name: "oar_relay_database_up",
    help: "1 when the database answered this scrape's reads, else 0 (the gauges read from it are then NaN).",
    registers,
  });
  const heldWaits = new Gauge({
    name: "oar_relay_held_waits",
    help: "relay_tool wait calls this process is answering now.",
    registers,
  });
  const toolCalls = new Counter({
    name: "oar_relay_tool_calls_total",
    help: "relay_tool calls this process answered, by action (invalid: none named) and outcome (ok, or the error code).",
    labelNames: ["action", "outcome"] as const,
    registers,
  });
  const deliveryLateness = new Histogram({
    name: "oar_relay_delivery_lateness_seconds",
    help: "Each event delivery's lateness: from its due time (its window's end, at once for an urgent event) to the commit of the message that carried it.",
    buckets: LATENESS_BUCKETS,
    registers,
  });
  const scheduleLateness = new Histogram({
    name: "oar_relay_schedule_lateness_seconds",
    help: "Each schedule firing's lateness: from its due slot to the commit of its message.",
    buckets: LATENESS_BUCKETS,
    registers,
  });
  const dbCalls = new Histogram({
    name: "oar_relay_db_query_duration_seconds",
    help: "Database calls by store operation (Port.method: a query or a few; transaction: a whole transaction), in seconds.",
    labelNames: ["operation"] as const,
    buckets: DB_BUCKETS,
    registers,
  });
  const dbFailures = new Counter({
    name: "oar_relay_db_query_failures_total",
    help: "Database calls that failed (refused, or the database did not answer), by store operation.",
    labelNames: ["operation"] as const,
    registers,
  });
  const pool = new Gauge({
    name: "oar_relay_db_pool_max_connections",
    help: "The most connections the database driver opens (postgres.js' pool size; PGlite: its one).",
    labelNames: ["driver"] as const,
    registers,
  });
  const httpRequests = new Counter({
    name: "oar_relay_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: "oar_relay_http_request_duration_seconds",
    help: "HTTP requests by method and route pattern: seconds until the response's head (a long wait or an event stream goes on after it).",
    labelNames: ["method", "route"] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  new Gauge({
    name: "oar_relay_info",
    help: "This relay: its name and version (always 1).",
    labelNames: ["name", "version"] as const,
    registers,
  }).set({ name: facts.name, version: facts.version }, 1);

  const observer: EngineObserver = {
    turnEnded: (turn) => turns.inc({ provider: turn.provider, status: turn.status }),
    toolCallStarted: (action) => {
      if (action === "wait") {
        heldWaits.inc();
      }
    },
    toolCallEnded: (call) => {
      if (call.started && call.action === "wait") {
        heldWaits.dec();
      }
      toolCalls.inc({ action: call.action, outcome: call.outcome });
    },
    deliverySent: (ms) => deliveryLateness.observe(seconds(ms)),
    scheduleFired: (ms) => scheduleLateness.observe(seconds(ms)),
  };

  // The process's own metrics start with the first scrape: prom-client starts an event-loop
  // monitor and a GC observer for them that it never stops, which a relay nobody scrapes (an
  // embedding, a test's) need not pay.
  let processMetrics = false;
  return {
    registry,
    observer,
    onStoreCall: (operation, ms, failed) => {
      dbCalls.observe({ operation }, seconds(ms));
      if (failed) {
        dbFailures.inc({ operation });
      }
    },
    describeDatabase: (driver, maxConnections) => pool.set({ driver }, maxConnections),
    onRequest: (request) => {
      httpRequests.inc({ method: request.method, route: request.route, status: String(request.status) });
      httpDuration.observe({ method: request.method, route: request.route }, request.seconds);
    },
    async scrape(read) {
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry });
      }
      try {
        const gauges = await read();
        queued.set(gauges.queuedTurns);
        running.set(gauges.runningTurns);
        outboxLag.set(Math.max(0, gauges.lastEventSeq - gauges.routedSeq));
        databaseUp.set(1);
      } catch {
        // NaN (unknown), not the last figure read nor 0: an empty queue is not what was seen.
        queued.set(Number.NaN);
        running.set(Number.NaN);
        outboxLag.set(Number.NaN);
        databaseUp.set(0);
      }
      return registry.metrics();
    },
  };
}
