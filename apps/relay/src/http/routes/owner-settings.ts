import type { Engine } from "@oar/engine";
import { OwnerSettingsPatchSchema } from "@oar/schema";
import { Hono } from "hono";
import { readBody } from "../validate";

/** /v1/owner/settings. */
export function ownerSettingsRoutes(engine: Engine): Hono {
  const app = new Hono();
  app.get("/", async (c) => c.json(await engine.owner.getSettings()));
  app.patch("/", async (c) =>
    c.json(await engine.owner.patchSettings(await readBody(c, OwnerSettingsPatchSchema))),
  );
  return app;
}
