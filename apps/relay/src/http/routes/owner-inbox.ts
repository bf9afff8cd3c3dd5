import type { Engine } from "@oar/engine";
import { OwnerInboxAnswerBodySchema, OwnerInboxQuerySchema } from "@oar/schema";
import { Hono } from "hono";
import { parseWith, readBody } from "../validate";

/** /v1/owner/inbox: the non-blocking questions agents asked (§34), answered, picked or dismissed here. */
export function ownerInboxRoutes(engine: Engine): Hono {
  const owner = engine.owner;
  const app = new Hono();
  app.get("/", async (c) => {
    const { closed } = parseWith(OwnerInboxQuerySchema, c.req.query());
    return c.json({ questions: await owner.listInbox({ closed: closed === "true" }) });
  });
  app.post("/:id", async (c) =>
    c.json(await owner.answerInbox(c.req.param("id"), await readBody(c, OwnerInboxAnswerBodySchema))),
  );
  return app;
}
