import type { Engine } from "@oar/engine";
import { Hono } from "hono";

/** /v1/owner/schedules: Cancel in a conversation's ⏰ list (R-SCHEND-01); the list is in GET /sessions/:id. */
export function ownerScheduleRoutes(engine: Engine): Hono {
  const app = new Hono();
  app.post("/:id/cancel", async (c) => c.json(await engine.owner.cancelSchedule(c.req.param("id"))));
  return app;
}
