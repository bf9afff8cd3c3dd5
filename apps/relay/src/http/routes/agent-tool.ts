import type { Clock, Logger } from "@oar/core";
import type { Engine } from "@oar/engine";
import { Hono } from "hono";
import { keepAliveResponse } from "../keep-alive-json";
import { readJson } from "../validate";

/**
 * POST /v1/tool: the relay_tool call without MCP (DESIGN §4). Body = the action object,
 * response = the result object with HTTP 200, `ok:false` included; only a body that is not JSON
 * is refused with 400. The response starts at once and long waits are kept alive.
 */
export function agentToolRoutes(deps: {
  readonly engine: Engine;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly keepAliveMs: number;
}): Hono {
  const app = new Hono();
  app.post("/", async (c) => {
    const input = await readJson(c);
    const sessionId = c.get("agentSessionId");
    return keepAliveResponse(c, {
      run: (signal) => deps.engine.execute(sessionId, input, { toolName: "relay_tool", signal }),
      clock: deps.clock,
      intervalMs: deps.keepAliveMs,
      logger: deps.logger,
      log: { sessionId },
    });
  });
  return app;
}
