import type { Engine } from "@oar/engine";
import { OwnerCreateGroupBodySchema, OwnerRenameGroupBodySchema } from "@oar/schema";
import { Hono } from "hono";
import { readBody } from "../validate";

/** /v1/owner/groups: the owner's groups are never deleted by themselves (R-UPD-17). */
export function ownerGroupRoutes(engine: Engine): Hono {
  const owner = engine.owner;
  const app = new Hono();
  app.get("/", async (c) => c.json({ groups: await owner.listGroups() }));
  app.post("/", async (c) => c.json(await owner.createGroup(await readBody(c, OwnerCreateGroupBodySchema))));
  app.patch("/:id", async (c) => {
    const { name } = await readBody(c, OwnerRenameGroupBodySchema);
    return c.json(await owner.renameGroup(c.req.param("id"), name));
  });
  app.delete("/:id", async (c) => {
    await owner.dissolveGroup(c.req.param("id"));
    return c.json({ ok: true });
  });
  return app;
}
