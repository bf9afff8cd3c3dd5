import type { Clock, IdGenerator } from "@oar/core";
import type { Engine, TokenStore } from "@oar/engine";
import {
  OwnerCreateSessionBodySchema,
  OwnerPatchSessionBodySchema,
  OwnerPostMessageBodySchema,
  SessionScopeSchema,
  type TokenResponse,
} from "@oar/schema";
import { Hono } from "hono";
import { z } from "zod";
import { issueAgentToken } from "../../agent-tokens";
import { parseWith, readBody } from "../validate";

const ListQuerySchema = z.strictObject({ scope: SessionScopeSchema.optional() });

/** What the owner routes that issue tokens (agent tokens, invites) run on. */
export interface OwnerTokenRouteDeps {
  readonly engine: Engine;
  readonly tokens: TokenStore;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/** /v1/owner/sessions (DESIGN §4): handlers parse, call an owner verb, and map. */
export function ownerSessionRoutes(deps: OwnerTokenRouteDeps): Hono {
  const owner = deps.engine.owner;
  const app = new Hono();
  app.post("/", async (c) =>
    c.json(await owner.createSession(await readBody(c, OwnerCreateSessionBodySchema))),
  );
  app.get("/", async (c) => {
    const { scope } = parseWith(ListQuerySchema, c.req.query());
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
  app.post("/:id/token", async (c) => {
    const session = await owner.getSession(c.req.param("id"));
    const token = await issueAgentToken({ ...deps, sessionId: session.id });
    return c.json({ token } satisfies TokenResponse);
  });
  app.post("/:id/archive", async (c) => c.json(await owner.archiveSession(c.req.param("id"))));
  app.post("/:id/kill", async (c) => {
    await owner.killSession(c.req.param("id"));
    return c.json({ ok: true });
  });
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    await owner.deleteSession(id);
    await deps.tokens.revokeTokensOf({ kind: "agent", subject: id, at: deps.clock.now() });
    return c.json({ ok: true });
  });
  return app;
}
