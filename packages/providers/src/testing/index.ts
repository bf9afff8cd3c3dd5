export {
  type AgentTestbed,
  COPILOT_BYOK_MODEL,
  claudeTestEnv,
  copilotTestEnv,
  createAgentTestbed,
  homeEnv,
  makeAgentFolders,
  pinnedClaudeBinary,
  pinnedCopilotBinary,
  processesWithEnv,
} from "./agent-testbed";
export {
  error,
  FAKE_INPUT_TOKENS,
  FAKE_OUTPUT_TOKENS,
  hang,
  type ScriptedReply,
  text,
  toolUse,
} from "./anthropic-replies";
export {
  type FakeAnthropic,
  type RecordedRequest,
  startFakeAnthropic,
  UNSCRIPTED_REPLY,
} from "./fake-anthropic";
export {
  type FakeOpenAiChat,
  startFakeOpenAiChat,
  UNSCRIPTED_CHAT_REPLY,
} from "./fake-openai-chat";
export { createGitRemotes, GIT_IDENTITY_ENV, type GitRemotes } from "./git-remote";
export { bodyOf, conversationOf, type MessagesBody, toolResultsOf } from "./messages-body";
export {
  type ChatReply,
  type ChatUsage,
  chatError,
  chatHang,
  chatText,
  chatToolCall,
  FAKE_CHAT_COMPLETION_TOKENS,
  FAKE_CHAT_PROMPT_TOKENS,
} from "./openai-chat-replies";
