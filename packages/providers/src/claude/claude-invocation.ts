import type { AgentAccess } from "@oar/engine";
import type { Mode } from "@oar/schema";

/** The relay's tool as Claude Code names it: MCP server `relay`, tool `relay_tool`. */
export const RELAY_MCP_TOOL = "mcp__relay__relay_tool";

/**
 * How the relay's modes map onto Claude Code's permission modes: `agent` edits files without
 * asking, `ask` asks before any change (2.1.332 also calls this mode `manual`), `plan` changes
 * nothing. Never `bypassPermissions`: the CLI refuses it as root, and the relay asks instead.
 */
export const PERMISSION_MODE_OF: Readonly<Record<Mode, string>> = {
  agent: "acceptEdits",
  ask: "default",
  plan: "plan",
};

export interface ClaudeArgsInput {
  readonly model: string;
  readonly effort: string | null;
  readonly mode: Mode;
  /** The CLI's session id of the conversation to go on with; `null` starts a new one. */
  readonly resume: string | null;
  /** Whether the relay's MCP server is given (the relay had an agent token to give). */
  readonly withRelayTool: boolean;
  /** Tools the owner allowed for this session, beside the relay's tool. */
  readonly allowedTools: readonly string[];
}

/** The CLI's arguments for one run; the prompt goes on stdin. */
export function claudeArgs(input: ClaudeArgsInput): string[] {
  const allowed = [...(input.withRelayTool ? [RELAY_MCP_TOOL] : []), ...input.allowedTools];
  return [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--model",
    input.model,
    ...(input.effort === null ? [] : ["--effort", input.effort]),
    ...(input.resume === null ? [] : ["--resume", input.resume]),
    "--permission-mode",
    PERMISSION_MODE_OF[input.mode],
    ...(input.withRelayTool ? ["--mcp-config", RELAY_MCP_CONFIG] : []),
    ...(allowed.length === 0 ? [] : ["--allowedTools", allowed.join(",")]),
  ];
}

/** A `${NAME}` placeholder, which the CLI fills from its environment when it reads an MCP config. */
const fromEnv = (name: string) => `\${${name}}`;

/**
 * The relay's MCP server as `--mcp-config` takes it. The CLI expands `${VAR}` from its
 * environment, so the agent token travels in the environment, never in the command line that
 * any user of the machine can read.
 */
export const RELAY_MCP_CONFIG = JSON.stringify({
  mcpServers: {
    relay: {
      type: "http",
      url: `${fromEnv("OAR_RELAY_URL")}/mcp`,
      headers: { Authorization: `Bearer ${fromEnv("OAR_AGENT_TOKEN")}` },
    },
  },
});

export type ClaudeBilling =
  | { readonly kind: "subscription" }
  | { readonly kind: "apiKey"; readonly apiKey: string };

// Credentials that would take precedence over, or stand in for, the billing the provider stands for.
const OTHER_CREDENTIALS = ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"];

/**
 * The CLI's environment: the relay's own (so ANTHROPIC_BASE_URL, proxies and the CLI's settings
 * apply), the session's relay access as the `command` provider gives it, and the billing:
 * `claude` drops ANTHROPIC_API_KEY so the CLI uses its own login; `claude-api` sets the
 * configured key and drops other credentials, so the key pays.
 */
export function claudeEnv(
  base: Readonly<Record<string, string | undefined>>,
  billing: ClaudeBilling,
  access: AgentAccess | null,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base };
  if (billing.kind === "apiKey") {
    for (const name of OTHER_CREDENTIALS) {
      delete env[name];
    }
    env.ANTHROPIC_API_KEY = billing.apiKey;
  } else {
    delete env.ANTHROPIC_API_KEY;
  }
  if (access !== null) {
    env.OAR_RELAY_URL = access.url.replace(/\/+$/, "");
    env.OAR_SESSION = access.sessionId;
    env.OAR_AGENT_TOKEN = access.token;
  }
  return env;
}
