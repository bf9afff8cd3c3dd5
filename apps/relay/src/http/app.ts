import { type Clock, type IdGenerator, type Logger, silentLogger } from "@oar/core";
import type { Engine } from "@oar/engine";
import type { Healthz, HealthzUnavailable } from "@oar/schema";
import { Hono } from "hono";
import { CLUSTER_ROUTE } from "../cluster-link";
import { type ConsoleAsset, loadConsoleAssets } from "../console-assets";
import { errorResponse, handleError } from "./errors";
import { DEFAULT_KEEP_ALIVE_MS } from "./keep-alive-json";
import { agentAuth, ownerAuth, peerAuth } from "./middleware/bearer-auth";
import { refuseNulInUrl } from "./middleware/refuse-nul-in-url";
import { relayRequestId } from "./middleware/request-id";
import { requestLog } from "./middleware/request-log";
import { limitBody } from "./node-request";
import { openApiHandler } from "./openapi/serve";
import { OpenStreams } from "./owner-event-stream";
import { agentToolRoutes } from "./routes/agent-tool";
import { clusterRoutes } from "./routes/cluster";
import { consoleRoutes } from "./routes/console";
import { mcpRoutes } from "./routes/mcp";
import { type AppMetrics, metricsRoutes } from "./routes/metrics";
import { ownerCardRoutes } from "./routes/owner-cards";
import { ownerEventRoutes } from "./routes/owner-events";
import { ownerGroupRoutes } from "./routes/owner-groups";
import { ownerInboxRoutes } from "./routes/owner-inbox";
import { ownerPeerRoutes } from "./routes/owner-peers";
import { ownerProviderRoutes } from "./routes/owner-providers";
import { ownerScheduleRoutes } from "./routes/owner-schedules";
import { ownerSessionRoutes } from "./routes/owner-sessions";
import { ownerSettingsRoutes } from "./routes/owner-settings";
import { ownerSubscriptionRoutes } from "./routes/owner-subscriptions";
import { peerRoutes } from "./routes/peer";

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  /** Whether the relay's database answers now (GET /healthz); absent, it is not asked. */
  readonly databaseAnswers?: () => Promise<boolean>;
}

/** What the agent and owner surfaces run on. */
export interface AppSurfaces {
  readonly engine: Engine;
  readonly ownerToken: string;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** How often a long wait writes a keep-alive (default 25 s, DESIGN §4); tests shorten it. */
  readonly keepAliveMs?: number;
  /**
   * The long-lived responses (the owner's event streams), which the relay ends when it closes;
   * default a set of this app's own, ended only by their clients.
   */
  readonly streams?: OpenStreams;
  /** The secret of this relay's cluster (DESIGN §9); absent, /v1/cluster refuses every call. */
  readonly clusterSecret?: string | undefined;
  /** The owner's console files; default those beside the relay's code (apps/relay/console). */
  readonly console?: ReadonlyMap<string, ConsoleAsset>;
  /** GET /metrics and what requests tell it; absent, there is no /metrics. */
  readonly metrics?: AppMetrics;
}

// A prompt is at most 100 000 characters (LIMITS.textMaxChars); JSON escaping can grow it a few times.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The HTTP surface (DESIGN §4): /healthz and /openapi.json, and with `surfaces` the agent surface (/mcp, /v1/tool),
 * the owner surface (/v1/owner/…) and the peer surface (/v1/peer/…). Every error is
 * `{ ok: false, code, error }`.
 */
export function newApp(info: AppInfo, surfaces?: AppSurfaces): Hono {
  const app = new Hono();
  const logger = surfaces?.logger ?? silentLogger;
  app.onError(handleError(logger));
  app.notFound((c) =>
    errorResponse(c, "REMOTE_RELAY_NOT_FOUND", `No route ${c.req.method} ${c.req.path} on this relay.`),
  );
  if (surfaces) {
    // First, so that every request, /healthz and refusals included, has its id and its log line.
    app.use(relayRequestId(surfaces.ids), requestLog({ logger, observe: surfaces.metrics?.onRequest }));
  }
  app.get("/healthz", async (c) => {
    const { name, version } = info;
    if (info.databaseAnswers !== undefined && !(await info.databaseAnswers())) {
      return c.json({ ok: false, name, version, database: "unreachable" } satisfies HealthzUnavailable, 503);
    }
    return c.json({ ok: true, name, version } satisfies Healthz);
  });
  app.get("/openapi.json", openApiHandler(info.version));
  if (!surfaces) {
    return app;
  }
  const { engine, clock } = surfaces;
  const keepAliveMs = surfaces.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  app.use(
    limitBody(MAX_BODY_BYTES, (c) =>
      errorResponse(c, "REMOTE_RELAY_INVALID_INPUT", `The request body is over ${MAX_BODY_BYTES} bytes.`),
    ),
  );
  app.use(refuseNulInUrl());

  const agent = agentAuth({ engine });
  app.use("/mcp", agent);
  app.use("/v1/tool", agent);
  app.route("/mcp", mcpRoutes({ engine, version: info.version, keepAliveMs }));
  app.route("/v1/tool", agentToolRoutes({ engine, clock, logger, keepAliveMs }));

  app.route("/", consoleRoutes(surfaces.console ?? loadConsoleAssets()));
  if (surfaces.metrics) {
    app.route("/metrics", metricsRoutes(surfaces.ownerToken, surfaces.metrics));
  }

  app.route(CLUSTER_ROUTE, clusterRoutes({ engine, secret: surfaces.clusterSecret }));
  app.use("/v1/owner/*", ownerAuth(surfaces.ownerToken));
  app.route("/v1/owner/sessions", ownerSessionRoutes(engine));
  app.route("/v1/owner/settings", ownerSettingsRoutes(engine));
  app.route("/v1/owner/groups", ownerGroupRoutes(engine));
  app.route("/v1/owner/cards", ownerCardRoutes(engine));
  app.route("/v1/owner/inbox", ownerInboxRoutes(engine));
  app.route("/v1/owner/schedules", ownerScheduleRoutes(engine));
  app.route("/v1/owner/peers", ownerPeerRoutes(engine));
  app.route("/v1/owner/subscriptions", ownerSubscriptionRoutes(engine));
  app.route("/v1/owner/providers", ownerProviderRoutes(engine));
  app.route(
    "/v1/owner/events",
    ownerEventRoutes({
      engine,
      clock,
      logger,
      keepAliveMs,
      streams: surfaces.streams ?? new OpenStreams(),
    }),
  );

  app.use("/v1/peer/*", peerAuth({ engine }));
  app.route("/v1/peer", peerRoutes({ engine, info, clock, logger, keepAliveMs }));
  return app;
}
