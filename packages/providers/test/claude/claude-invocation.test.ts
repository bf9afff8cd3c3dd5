import { describe, expect, it } from "vitest";
import { claudeArgs, claudeEnv } from "../../src/claude/claude-invocation";

describe("the CLI's command line and environment", () => {
  it("maps the relay's modes onto Claude Code's permission modes", () => {
    const modeOf = (mode: "agent" | "ask" | "plan") => {
      const args = claudeArgs({
        model: "sonnet",
        effort: null,
        mode,
        resume: null,
        withRelayTool: false,
        allowedTools: [],
      });
      return args[args.indexOf("--permission-mode") + 1];
    };
    expect([modeOf("agent"), modeOf("ask"), modeOf("plan")]).toEqual(["acceptEdits", "default", "plan"]);
  });

  it("keeps the agent token out of the command line: the MCP config reads it from the environment", () => {
    const args = claudeArgs({
      model: "claude-opus-5-5",
      effort: "high",
      mode: "agent",
      resume: "s1",
      withRelayTool: true,
      allowedTools: ["Bash"],
    });
    expect(args).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "claude-opus-5-5",
      "--effort",
      "high",
      "--resume",
      "s1",
      "--permission-mode",
      "acceptEdits",
      "--mcp-config",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the CLI, not JavaScript, fills these in.
      '{"mcpServers":{"relay":{"type":"http","url":"${OAR_RELAY_URL}/mcp","headers":{"Authorization":"Bearer ${OAR_AGENT_TOKEN}"}}}}',
      "--allowedTools",
      "mcp__relay__relay_tool,Bash",
    ]);
    const env = claudeEnv(
      { PATH: "/bin" },
      { kind: "subscription" },
      {
        url: "http://127.0.0.1:8787/",
        sessionId: "ses_1",
        token: "tok",
      },
    );
    expect(env).toEqual({
      PATH: "/bin",
      OAR_RELAY_URL: "http://127.0.0.1:8787",
      OAR_SESSION: "ses_1",
      OAR_AGENT_TOKEN: "tok",
    });
  });

  it("bills the subscription without ANTHROPIC_API_KEY, and the API key with nothing else", () => {
    const base = {
      ANTHROPIC_API_KEY: "own",
      ANTHROPIC_AUTH_TOKEN: "t",
      CLAUDE_CODE_OAUTH_TOKEN: "o",
      HOME: "/h",
    };
    expect(claudeEnv(base, { kind: "subscription" }, null)).toEqual({
      ANTHROPIC_AUTH_TOKEN: "t",
      CLAUDE_CODE_OAUTH_TOKEN: "o",
      HOME: "/h",
    });
    expect(claudeEnv(base, { kind: "apiKey", apiKey: "sk" }, null)).toEqual({
      ANTHROPIC_API_KEY: "sk",
      HOME: "/h",
    });
  });
});
