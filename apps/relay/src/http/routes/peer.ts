import type { Clock, Logger } from "@oar/core";
import type { Engine } from "@oar/engine";
import { PEER_FEATURES, type PeerInfo, PeerToolRequestSchema } from "@oar/schema";
import { Hono } from "hono";
import { keepAliveResponse } from "../keep-alive-json";
import { readBody } from "../validate";

/**
 * /v1/peer (DESIGN §4 peer surface): what another relay holding one of this relay's invites may
 * call. `POST /tool` answers like /v1/tool: HTTP 200 for every well-formed call, the response
 * started at once and kept alive while the call waits.
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
  return app;
}
