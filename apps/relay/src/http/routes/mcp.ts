import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Engine } from "@oar/engine";
import { Hono } from "hono";
import { createRelayMcpServer } from "../mcp-server";

/**
 * POST /mcp: MCP Streamable HTTP, stateless (a server and transport per request, so any relay
 * process can answer any request). SSE keep-alive comments hold long waits open (DESIGN §4).
 * There is no server-initiated stream: GET and DELETE answer 405, which clients accept.
 */
export function mcpRoutes(deps: {
  readonly engine: Engine;
  readonly version: string;
  readonly keepAliveMs: number;
}): Hono {
  const app = new Hono();
  app.post("/", async (c) => {
    const server = createRelayMcpServer({
      engine: deps.engine,
      sessionId: c.get("agentSessionId"),
      version: deps.version,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      keepAliveMs: deps.keepAliveMs,
    });
    // The client going away ends the call's waits: closing the server aborts its handlers.
    c.req.raw.signal.addEventListener("abort", () => void server.close(), { once: true });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  app.on(["GET", "DELETE"], "/", (c) =>
    c.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: this server is stateless." },
        id: null,
      },
      405,
      { Allow: "POST" },
    ),
  );
  return app;
}
