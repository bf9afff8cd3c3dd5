import type { Engine } from "@oar/engine";
import type { OwnerProviders } from "@oar/schema";
import { Hono } from "hono";

/** /v1/owner/providers: what "start a conversation" offers, as relay_info lists it. */
export function ownerProviderRoutes(engine: Engine): Hono {
  const app = new Hono();
  app.get("/", async (c) =>
    c.json({ providers: await engine.owner.listProviders() } satisfies OwnerProviders),
  );
  return app;
}
