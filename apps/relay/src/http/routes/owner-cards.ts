import type { Engine, OwnerCard } from "@oar/engine";
import { type CardStatus, OwnerCardAnswerBodySchema, OwnerCardsQuerySchema } from "@oar/schema";
import { Hono } from "hono";
import { parseWith, readBody } from "../validate";

// Question cards are pending, answered, or ended with their turn (shown as expired); no
// question card is allowed or denied: those are approval cards, which come with permissions.
const QUESTION_STATUS: Record<CardStatus, OwnerCard["status"] | null> = {
  pending: "pending",
  answered: "answered",
  expired: "ended",
  allowed: null,
  denied: null,
};

/** /v1/owner/cards: approval cards and blocking question cards. */
export function ownerCardRoutes(engine: Engine): Hono {
  const owner = engine.owner;
  const app = new Hono();
  app.get("/", async (c) => {
    const { status } = parseWith(OwnerCardsQuerySchema, c.req.query());
    if (status === undefined) {
      return c.json({ cards: await owner.listCards() });
    }
    const questionStatus = QUESTION_STATUS[status];
    return c.json({
      cards: questionStatus === null ? [] : await owner.listCards({ status: questionStatus }),
    });
  });
  app.post("/:id", async (c) =>
    c.json(await owner.answerCard(c.req.param("id"), await readBody(c, OwnerCardAnswerBodySchema))),
  );
  return app;
}
