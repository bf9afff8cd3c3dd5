import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface ToolCallSeen {
  readonly name: string;
  readonly arguments: unknown;
  readonly authorization: string | undefined;
}

/** A stand-in for the relay's `/mcp` (server `relay`, tool `relay_tool`), behind a bearer token. */
export interface RelayMcpServer {
  /** What a worker gets as `agentAccess().url`: the server answers on `${url}/mcp`. */
  readonly url: string;
  readonly calls: readonly ToolCallSeen[];
  /** Requests refused for a bad or missing token. */
  readonly refused: number;
  close(): Promise<void>;
}

export async function startRelayMcpServer(token: string): Promise<RelayMcpServer> {
  const calls: ToolCallSeen[] = [];
  let refused = 0;

  // Stateless, as the relay's own: a server and a transport per request.
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const server = new Server({ name: "relay", version: "0.0.0-test" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: "relay_tool",
          description: "Work with other agent sessions on this relay.",
          inputSchema: { type: "object", properties: { action: { type: "string" } }, required: ["action"] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      calls.push({
        name: request.params.name,
        arguments: request.params.arguments,
        authorization: req.headers.authorization,
      });
      const result = { ok: true, relay: "test-relay", sessions: [] };
      return { structuredContent: result, content: [{ type: "text", text: JSON.stringify(result) }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    if (req.url !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      refused += 1;
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: false, code: "REMOTE_RELAY_AUTH", error: "bad token" }));
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    answer(req, res).catch((cause: unknown) => {
      res.writeHead(500).end(String(cause));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get refused() {
      return refused;
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
