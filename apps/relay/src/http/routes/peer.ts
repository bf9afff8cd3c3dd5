import { type Clock, isRelayError, type Logger } from "@oar/core";
import type { Engine } from "@oar/engine";
import {
  errorEnvelope,
  PEER_FEATURES,
  PeerEventsQuerySchema,
  type PeerInfo,
  PeerToolRequestSchema,
} from "@oar/schema";
import { Hono } from "hono";
import { keepAliveResponse } from "../keep-alive-json";
import { parseWith, readBody } from "../validate";

/**
 * /v1/peer (DESIGN §4 peer surface): what another relay holding one of this relay's invites may
 * call. `POST /tool` answers like /v1/tool: HTTP 200 for every well-formed call, the response
 * started at once and kept alive while the call waits. `GET /subscriptions/:id/events` (§28) is
 * the replay of a subscription the relay bound to the invite holds here; one that is unknown,
 * another relay's, or ended with nothing left answers HTTP 410 REMOTE_RELAY_NOT_FOUND (a 404
 * would read as a relay without the route).
 */
export function peerRoutes(deps: {
  readonly engine: Engine;
  readonly info: { readonly name: string; readonly version: string };
  readonly clock: Clock;
  readonly logger: Logger;
  readonly keepAliveMs: number;
}): Hono {
  const app = new Hono();
  app.get("/info", (c) =>
    c.json({
      name: deps.info.name,
      version: deps.info.version,
      features: [...PEER_FEATURES],
    } satisfies PeerInfo),
  );
  app.post("/tool", async (c) => {
    const { call, origin } = await readBody(c, PeerToolRequestSchema);
    await deps.engine.bindInvite(c.get("peerInvite"), origin.relay);
    return keepAliveResponse(c, {
      run: (signal) => deps.engine.executeFromPeer(origin, call, { signal }),
      clock: deps.clock,
      intervalMs: deps.keepAliveMs,
      logger: deps.logger,
      log: { peer: origin.relay },
    });
  });
  app.get("/subscriptions/:id/events", async (c) => {
    const query = parseWith(PeerEventsQuerySchema, {
      after: c.req.query("after"),
      limit: c.req.query("limit"),
    });
    try {
      const page = await deps.engine.peerSubscriptionEvents(
        c.get("peerInvite").label,
        c.req.param("id"),
        query,
      );
      return c.json(page);
    } catch (error) {
      if (isRelayError(error) && error.code === "REMOTE_RELAY_NOT_FOUND") {
        return c.json(errorEnvelope("REMOTE_RELAY_NOT_FOUND", error.message), 410);
      }
      throw error;
    }
  });
  app.get("/questions/:id", async (c) => {
    try {
      return c.json(await deps.engine.peerQuestion(c.get("peerInvite").label, c.req.param("id")));
    } catch (error) {
      // 410, not 404: to a peer client a 404 means a relay without this route (an older OAR).
      if (isRelayError(error) && error.code === "REMOTE_RELAY_NOT_FOUND") {
        return c.json(errorEnvelope("REMOTE_RELAY_NOT_FOUND", error.message), 410);
      }
      throw error;
    }
  });
  return app;
}
