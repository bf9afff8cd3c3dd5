import type { Engine } from "@oar/engine";
import {
  OwnerCreateSessionBodySchema,
  OwnerPatchSessionBodySchema,
  OwnerPostMessageBodySchema,
  SessionScopeSchema,
  type TokenResponse,
} from "@oar/schema";
import { Hono } from "hono";
import { z } from "zod";
import { parseWith, readBody } from "../validate";

export const SessionListQuerySchema = z.strictObject({ scope: SessionScopeSchema.optional() });

/** /v1/owner/sessions (DESIGN §4): handlers parse, call an owner verb, and map. */
export function ownerSessionRoutes(engine: Engine): Hono {
  const { owner } = engine;
  const app = new Hono();
  app.post("/", async (c) =>
    c.json(await owner.createSession(await readBody(c, OwnerCreateSessionBodySchema))),
  );
  app.get("/", async (c) => {
    const { scope } = parseWith(SessionListQuerySchema, c.req.query());
    return c.json({ sessions: await owner.listSessions(scope === undefined ? {} : { scope }) });
  });
  app.get("/:id", async (c) => c.json(await owner.getSession(c.req.param("id"))));
  app.patch("/:id", async (c) =>
    c.json(await owner.patchSession(c.req.param("id"), await readBody(c, OwnerPatchSessionBodySchema))),
  );
  app.post("/:id/messages", async (c) => {
    const { text } = await readBody(c, OwnerPostMessageBodySchema);
    return c.json(await owner.postMessage(c.req.param("id"), text));
  });
  app.post("/:id/token", async (c) =>
    c.json({ token: await owner.issueAgentToken(c.req.param("id")) } satisfies TokenResponse),
  );
  app.post("/:id/archive", async (c) => c.json(await owner.archiveSession(c.req.param("id"))));
  app.post("/:id/compact", async (c) => c.json(await owner.compactSession(c.req.param("id"))));
  app.post("/:id/kill", async (c) => {
    await owner.killSession(c.req.param("id"));
    return c.json({ ok: true });
  });
  app.delete("/:id", async (c) => {
    await owner.deleteSession(c.req.param("id"));
    return c.json({ ok: true });
  });
  return app;
}
