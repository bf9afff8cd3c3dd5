import { Hono } from "hono";
import type { RequestReport } from "../../metrics/relay-metrics";
import { ownerAuth } from "../middleware/bearer-auth";

/** What the HTTP surface serves at /metrics and tells of each request. */
export interface AppMetrics {
  /** The exposition text, read now. */
  scrape(): Promise<string>;
  readonly contentType: string;
  onRequest(request: RequestReport): void;
}

/** GET /metrics (DESIGN §10): Prometheus' text format, for the owner token only. */
export function metricsRoutes(ownerToken: string, metrics: AppMetrics): Hono {
  const app = new Hono();
  app.use(ownerAuth(ownerToken));
  app.get("/", async (c) => c.body(await metrics.scrape(), 200, { "Content-Type": metrics.contentType }));
  return app;
}
