import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "@oar/engine";
import {
  LEGACY_RELAY_TOOL_NAME,
  RELAY_TOOL_DESCRIPTION,
  RELAY_TOOL_NAME,
  relayToolInputJsonSchema,
} from "@oar/schema";

const RELAY_TOOL: Tool = {
  name: RELAY_TOOL_NAME,
  description: RELAY_TOOL_DESCRIPTION,
  inputSchema: relayToolInputJsonSchema as Tool["inputSchema"],
};

/**
 * The MCP server "relay" of one calling session (DESIGN §4): `relay_tool` is listed while the
 * tool is enabled for it (GAP-02); a call under `relay_tool` or the unlisted legacy
 * `remote_relay` (R-NAME-05, R-NAME-07) runs through the engine. The low-level Server is used
 * because the tool's input schema is a JSON Schema, not a zod shape.
 */
export function createRelayMcpServer(options: {
  readonly engine: Engine;
  readonly sessionId: string;
  readonly version: string;
}): Server {
  const { engine, sessionId } = options;
  const server = new Server({ name: "relay", version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await engine.isToolEnabled(sessionId)) ? [RELAY_TOOL] : [],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (name !== RELAY_TOOL_NAME && name !== LEGACY_RELAY_TOOL_NAME) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${name}": this server has ${RELAY_TOOL_NAME}.`,
      );
    }
    const result = await engine.execute(sessionId, request.params.arguments ?? {}, {
      toolName: name,
      signal: extra.signal,
    });
    return {
      structuredContent: result,
      content: [{ type: "text", text: JSON.stringify(result) }],
      isError: result.ok === false,
    };
  });
  return server;
}
