import type { Engine } from "@oar/engine";
import type { OwnerUnsubscribeResult } from "@oar/schema";
import { Hono } from "hono";

/** /v1/owner/subscriptions: Unsubscribe in a conversation's `watching` chip (R-UI-06); the chip is in GET /sessions/:id. */
export function ownerSubscriptionRoutes(engine: Engine): Hono {
  const app = new Hono();
  app.post("/:id/unsubscribe", async (c) =>
    c.json((await engine.owner.unsubscribe(c.req.param("id"))) satisfies OwnerUnsubscribeResult),
  );
  return app;
}
