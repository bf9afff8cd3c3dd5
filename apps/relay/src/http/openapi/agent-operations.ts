import { component, inline, type Operation, onSurface, output } from "./operation";
import { JsonRpcErrorSchema } from "./response-schemas";

// The MCP revision the installed SDK speaks (LATEST_PROTOCOL_VERSION of @modelcontextprotocol/sdk).
const MCP_TRANSPORT =
  "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http";

const jsonRpcError = output("JsonRpcError", JsonRpcErrorSchema);

const mcpNotAllowed = (method: "GET" | "DELETE") => ({
  status: 405,
  description: `No ${method}: the server is stateless, so it opens no server-initiated stream and has no session to end.`,
  bodies: [{ schema: jsonRpcError }],
  headers: { Allow: { description: "POST" } },
});

/** The agent surface (DESIGN §4), bearer = the agent token of the calling session. */
export const agentOperations: readonly Operation[] = onSurface({ tag: "agent", auth: "agent" }, [
  {
    operationId: "mcp",
    method: "post",
    path: "/mcp",
    summary: "MCP Streamable HTTP: the MCP server `relay` with its one tool, relay_tool",
    description:
      "The body is an MCP JSON-RPC message (or a batch) as the MCP specification defines it; its inner schemas are the specification's, not this document's. `tools/list` lists `relay_tool` (input schema: the action union, `RelayToolCall`) while the tool is enabled for the session; a `tools/call` result carries the relay_tool result (`RelayToolResult`) as `structuredContent` plus one text block holding the same JSON, with `isError` true exactly when `ok` is false. Stateless: no `Mcp-Session-Id`. A long wait is answered as an SSE stream kept alive with comments.",
    externalDocs: { url: MCP_TRANSPORT, description: "MCP: the Streamable HTTP transport" },
    body: {
      required: true,
      schema: inline({
        description: "A JSON-RPC 2.0 request, notification or response of MCP, or a batch of them.",
        type: ["object", "array"],
      }),
    },
    responses: [
      {
        status: 200,
        description: "The JSON-RPC response, as JSON or as an SSE stream (as the request's Accept allows).",
        bodies: [
          { mediaType: "application/json", schema: inline({ type: ["object", "array"] }) },
          { mediaType: "text/event-stream", schema: inline({ type: "string" }) },
        ],
      },
      { status: 202, description: "A notification or response was accepted; no body." },
      {
        status: 400,
        description:
          "A body the MCP transport cannot read (a JSON-RPC error), or one over the relay's size limit (the error envelope).",
        bodies: [
          {
            schema: inline({
              oneOf: [
                { $ref: "#/components/schemas/JsonRpcError" },
                { $ref: "#/components/schemas/ErrorEnvelope" },
              ],
            }),
          },
        ],
      },
      {
        status: 406,
        description: "The request's Accept does not take both application/json and text/event-stream.",
        bodies: [{ schema: jsonRpcError }],
      },
      {
        status: 415,
        description: "The request's Content-Type is not application/json.",
        bodies: [{ schema: jsonRpcError }],
      },
    ],
  },
  {
    operationId: "mcpGet",
    method: "get",
    path: "/mcp",
    summary: "Not served (MCP: no server-initiated stream)",
    responses: [mcpNotAllowed("GET")],
  },
  {
    operationId: "mcpDelete",
    method: "delete",
    path: "/mcp",
    summary: "Not served (MCP: no session to end)",
    responses: [mcpNotAllowed("DELETE")],
  },
  {
    operationId: "callRelayTool",
    method: "post",
    path: "/v1/tool",
    summary: "One relay_tool call without MCP",
    description:
      "The body is the action object, the response its result, with HTTP 200 for every well-formed authenticated call (`ok: false` results included); only a body that is not JSON is refused with 400. The response starts at once: a call that waits (`wait_seconds`, up to the relay's longest wait) is kept alive with a space before the JSON at least every 25 s, which any JSON parser skips.",
    body: { required: true, schema: component("RelayToolCall") },
    responses: [
      {
        status: 200,
        description: "The call's result: its action's success, or the error envelope.",
        bodies: [{ schema: component("RelayToolResult") }],
      },
    ],
  },
]);
