import type { Engine } from "@oar/engine";
import { OwnerCardAnswerBodySchema, OwnerCardsQuerySchema } from "@oar/schema";
import { Hono } from "hono";
import { parseWith, readBody } from "../validate";

/**
 * /v1/owner/cards: approval cards (pending, allowed, denied, expired) and blocking question cards
 * (pending, answered, or ended with their turn, listed under `expired`).
 */
export function ownerCardRoutes(engine: Engine): Hono {
  const owner = engine.owner;
  const app = new Hono();
  app.get("/", async (c) => {
    const { status } = parseWith(OwnerCardsQuerySchema, c.req.query());
    return c.json({ cards: await owner.listCards(status === undefined ? {} : { status }) });
  });
  app.post("/:id", async (c) =>
    c.json(await owner.answerCard(c.req.param("id"), await readBody(c, OwnerCardAnswerBodySchema))),
  );
  return app;
}
