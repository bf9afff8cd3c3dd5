/** A tool the CLI refused to run in `-p` mode because nothing allowed it. */
export interface PermissionDenial {
  readonly toolName: string;
  readonly input: unknown;
}

/** The `result` line that ends a `claude -p` run. */
export interface ClaudeResult {
  readonly sessionId: string | undefined;
  readonly isError: boolean;
  readonly subtype: string;
  readonly text: string;
  readonly errors: readonly string[];
  readonly costUsd: number | undefined;
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly denials: readonly PermissionDenial[];
}

export type AssistantBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "tool_use"; readonly name: string; readonly input: unknown };

/** The lines of `--output-format stream-json` a worker acts on; the others are skipped. */
export type ClaudeEvent =
  | {
      readonly kind: "init";
      readonly sessionId: string;
      readonly tools: readonly string[];
      /** MCP servers by name, with the CLI's word for how connecting went (`connected`, `failed`, …). */
      readonly mcpServers: Readonly<Record<string, string>>;
    }
  | { readonly kind: "assistant"; readonly blocks: readonly AssistantBlock[] }
  | { readonly kind: "result"; readonly result: ClaudeResult };

type Fields = Readonly<Record<string, unknown>>;

const isFields = (value: unknown): value is Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

export function readClaudeEvent(line: unknown): ClaudeEvent | undefined {
  if (!isFields(line)) {
    return undefined;
  }
  if (line.type === "system" && line.subtype === "init") {
    const sessionId = str(line.session_id);
    return sessionId === undefined
      ? undefined
      : {
          kind: "init",
          sessionId,
          tools: list(line.tools).filter((t): t is string => typeof t === "string"),
          mcpServers: Object.fromEntries(
            list(line.mcp_servers).flatMap((server) =>
              isFields(server) && typeof server.name === "string"
                ? [[server.name, str(server.status) ?? ""]]
                : [],
            ),
          ),
        };
  }
  // Sub-agents' messages carry their parent's tool_use id; an API error arrives as a made-up
  // assistant message whose text the result repeats, so neither is reply text.
  if (line.type === "assistant" && line.parent_tool_use_id == null && line.is_api_error_message !== true) {
    const message = isFields(line.message) ? line.message : {};
    return { kind: "assistant", blocks: list(message.content).flatMap(readBlock) };
  }
  if (line.type === "result") {
    return { kind: "result", result: readResult(line) };
  }
  return undefined;
}

function readBlock(block: unknown): AssistantBlock[] {
  if (!isFields(block)) {
    return [];
  }
  if (block.type === "text" && typeof block.text === "string") {
    return [{ type: "text", text: block.text }];
  }
  if (block.type === "tool_use" && typeof block.name === "string") {
    return [{ type: "tool_use", name: block.name, input: block.input }];
  }
  return [];
}

function readResult(line: Fields): ClaudeResult {
  const usage = isFields(line.usage) ? line.usage : {};
  const input = num(usage.input_tokens);
  // Cached prompt tokens are input the model read too; the CLI counts them apart.
  const cached = (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
  return {
    sessionId: str(line.session_id),
    isError: line.is_error === true,
    subtype: str(line.subtype) ?? "",
    text: str(line.result) ?? "",
    errors: list(line.errors).filter((e): e is string => typeof e === "string"),
    costUsd: num(line.total_cost_usd),
    inputTokens: input === undefined ? undefined : input + cached,
    outputTokens: num(usage.output_tokens),
    denials: list(line.permission_denials).flatMap((denial) =>
      isFields(denial) && typeof denial.tool_name === "string"
        ? [{ toolName: denial.tool_name, input: denial.tool_input }]
        : [],
    ),
  };
}
