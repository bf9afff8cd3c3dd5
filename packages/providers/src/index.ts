export {
  type AcpAgentDefinition,
  isAcpEntry,
  parseAcpDefinition,
} from "./acp/acp-definition";
export {
  type AcpSourceOptions,
  acpProviderSource,
  DEFAULT_ACP_IDLE_MS,
  DEFAULT_CANCEL_GRACE_MS,
} from "./acp/acp-source";
export {
  type ApiChatSourceOptions,
  apiChatProviderSource,
  DEFAULT_API_CHAT_MAX_STEPS,
  DEFAULT_API_CHAT_TIMEOUT_SECONDS,
} from "./api-chat/api-chat-source";
export { findClaudeBinary, resolveProgram } from "./claude/claude-binary";
export { PERMISSION_MODE_OF, RELAY_MCP_TOOL } from "./claude/claude-invocation";
export { CLAUDE_EFFORTS, CLAUDE_MODELS, CLAUDE_PROVIDER_INFO } from "./claude/claude-models";
export {
  type ClaudeProviderSourceOptions,
  claudeNotFoundMessage,
  claudeProviderSource,
} from "./claude/claude-provider-source";
export {
  CLAUDE_API_NOT_CONFIGURED,
  CLAUDE_API_PROVIDER_ID,
  CLAUDE_PROVIDER_ID,
  MAX_MONTHLY_CAP_USD,
} from "./claude/claude-settings";
export { CLAUDE_CLOUD_INFO, CLOUD_TOOLS_WITHOUT_CARD } from "./claude-cloud/cloud-provider";
export {
  CLAUDE_CLOUD_PROVIDER_ID,
  DEFAULT_GIT_BASE_URL,
  repositoryUrl,
} from "./claude-cloud/cloud-settings";
export { type CommandProviderOptions, createCommandProvider } from "./command/command-provider";
export { commandProviderSource } from "./command/command-source";
export {
  type CommandProviderDefinition,
  parseCommandDefinition,
  RESERVED_PROVIDER_IDS,
} from "./command/definition";
export { COMMAND_PLACEHOLDERS } from "./command/placeholders";
export {
  COPILOT_EFFORTS,
  COPILOT_MODEL_IDS,
  COPILOT_PROVIDER_ID,
  copilotModels,
} from "./copilot/copilot-models";
export {
  COPILOT_LABEL,
  type CopilotSourceOptions,
  copilotNotFoundMessage,
  copilotProviderSource,
} from "./copilot/copilot-source";
export { createExternalProvider, EXTERNAL_PROVIDER_INFO } from "./external/external-provider";
export { MAX_SCRIPT_SLEEP_MS, parseScript, type ScriptPlan, type ScriptStep } from "./script/directives";
export {
  runScriptTurn,
  scriptProblemsMessage,
  sleepUnlessAborted,
} from "./script/run-script";
export { createScriptProvider, SCRIPT_PROVIDER_INFO } from "./script/script-provider";
